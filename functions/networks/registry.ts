import type { Network } from './network.ts';
import { NETWORK_NAMES, type NetworkName } from './names.ts';
import { tron } from './tron/network.ts';
import { arbitrum, bsc, ethereum, polygon } from './evm/networks.ts';

/**
 * The registered networks' descriptions (network.ts, Network): what the API functions need to
 * check and derive addresses. Typed by names.ts's list, so a name added there does not compile
 * until its network is registered here and in the key, chain, transfer and sandbox registries.
 */
const NETWORKS: { readonly [N in NetworkName]: Network } = { tron, ethereum, bsc, polygon, arbitrum };

export { NETWORK_NAMES, type NetworkName };

export function networkNamed(name: NetworkName): Network {
  return NETWORKS[name];
}

export const registeredNetworks = (): Network[] => NETWORK_NAMES.map(networkNamed);

/** An address in words for messages: `TRON address (base58check, starting with T)`. */
export const addressInWords = (network: Network): string => `${network.title} address (${network.address.form})`;

/** Where no network is named (the dashboard's allowlist): an address of any registered network. */
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
