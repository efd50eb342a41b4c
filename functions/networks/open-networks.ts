import { NETWORK_NAMES, type EvmNetworkName, type NetworkName } from './names.ts';

/** What a stage's EVM_NETWORKS setting opens: an entry per EVM network, whatever it holds. */
type OpenEvmNetworks = Partial<Record<EvmNetworkName, unknown>> | undefined;

/**
 * Whether `network` is open on a stage, the one answer deposits and withdrawals give: TRON always,
 * an EVM network when the stage's EVM_NETWORKS names it (functions/networks/evm/settings.ts).
 */
export const isOpenOn = (network: NetworkName, evmNetworks: OpenEvmNetworks): boolean => network === 'tron' || evmNetworks?.[network] !== undefined;

/** The networks open on a stage, in NETWORK_NAMES' order (what a refusal lists). */
export const openNetworksOf = (evmNetworks: OpenEvmNetworks): NetworkName[] => NETWORK_NAMES.filter((network) => isOpenOn(network, evmNetworks));

/** The networks a stage's settings open (for what runs on each: the chain jobs, reconcile). */
export const networksOpenIn = (settings: { EVM_NETWORKS?: OpenEvmNetworks }): NetworkName[] => openNetworksOf(settings.EVM_NETWORKS);
