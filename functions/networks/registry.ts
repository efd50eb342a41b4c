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
export const anyNetworkAddressInWords = (): string => registeredNetworks().map(addressInWords).join(' or ');
