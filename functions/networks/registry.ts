import type { Network } from './network.ts';
import { NETWORK_NAMES, type NetworkName } from './names.ts';
import { tron } from './tron/network.ts';
import { arbitrum, bsc, ethereum, polygon } from './evm/networks.ts';
import { solana } from './solana/network.ts';

/**
 * The registered networks' descriptions (network.ts, Network): what the API functions need to
 * check and derive addresses. Typed by names.ts's list, so a name added there does not compile
 * until its network is registered here and in the key, chain, transfer and sandbox registries.
 */
const NETWORKS: { readonly [N in NetworkName]: Network } = { tron, ethereum, bsc, polygon, arbitrum, solana };

export { NETWORK_NAMES, type NetworkName };

export function networkNamed(name: NetworkName): Network {
  return NETWORKS[name];
}

export const registeredNetworks = (): Network[] => NETWORK_NAMES.map(networkNamed);

/** An address in words for messages: `TRON address (base58check, starting with T)`. */
export const addressInWords = (network: Network): string => `${network.title} address (${network.address.form})`;

/** What a field on a network must be, in words: `an address of TRON (base58check, starting with T)`. */
export const addressOf = (network: Network): string => `an address of ${network.title} (${network.address.form})`;

/** The form an address is stored and compared in on `network` (its `address.canonical`: EIP-55 on
 * the EVM networks, so any letter case is one address; base58check on TRON), or null when it is
 * none of the network's addresses. */
export const canonicalOn = (network: NetworkName, address: string): string | null => networkNamed(network).address.canonical(address.trim());

/** Every registered network on which `address` is an address, in registration order: `0x…` is
 * one on each EVM network, `T…` on TRON alone. */
export const networksOf = (address: string): NetworkName[] => registeredNetworks().flatMap((network) => (network.address.canonical(address.trim()) === null ? [] : [network.name]));

/**
 * The account `address` names (network.ts AddressFormat.account), in the canonical form of every
 * registered address form: `0x…` and its TRON twin `T…` name one key or contract,
 * so what Cambio holds in one form it holds in the other. Empty for no registered network's address.
 */
export function accountForms(address: string): string[] {
  const networks = registeredNetworks();
  const account = networks.map((network) => network.address.account(address.trim())).find((bytes): bytes is string => bytes !== null);
  return account === undefined ? [] : [...new Set(networks.map((network) => network.address.ofAccount(account)).filter((form): form is string => form !== null))];
}

/** Where no network is named: an address of any registered network. */
export const isAnyNetworkAddress = (value: unknown): value is string => registeredNetworks().some((network) => network.address.is(value));
/** Networks that write addresses alike (the EVM ones) are named together:
 * `TRON address (…) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (…)`. */
export const anyNetworkAddressInWords = (): string =>
  addressForms()
    .map(({ titles, form }) => `${titles.join(', ').replace(/, ([^,]*)$/, ' or $1')} address (${form})`)
    .join(' or ');

/** The registered networks grouped by address form, in registration order. */
export function addressForms(): { titles: string[]; form: string; pattern: string }[] {
  const forms = new Map<string, { titles: string[]; form: string; pattern: string }>();
  for (const network of registeredNetworks()) {
    const known = forms.get(network.address.pattern);
    if (known) known.titles.push(network.title);
    else forms.set(network.address.pattern, { titles: [network.title], form: network.address.form, pattern: network.address.pattern });
  }
  return [...forms.values()];
}
