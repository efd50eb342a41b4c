import { TRON_STAGE_SETTINGS, tronStageContracts } from './tron/settings.ts';
import { EVM_STAGE_SETTINGS, evmStageContracts, type EvmNetworkName, type EvmNetworkSettings } from './evm/settings.ts';
import type { NetworkName } from './names.ts';

/** The registered networks' own stage settings, for functions/settings/schema.ts. Apart from
 * registry.ts because every function parses settings, and these must bundle nothing but valibot. */
export const NETWORK_STAGE_SETTINGS = { ...TRON_STAGE_SETTINGS, ...EVM_STAGE_SETTINGS };

/** What the stage's settings say of the contracts Cambio uses: TRON's USDT_CONTRACT, and EVM_NETWORKS. */
export type ContractSettings = { USDT_CONTRACT: string; EVM_NETWORKS: Partial<Record<EvmNetworkName, EvmNetworkSettings>> };

const STAGE_CONTRACTS: { readonly [N in NetworkName]: (settings: ContractSettings) => string[] } = {
  tron: tronStageContracts,
  ethereum: evmStageContracts('ethereum'),
  bsc: evmStageContracts('bsc'),
  polygon: evmStageContracts('polygon'),
  arbitrum: evmStageContracts('arbitrum'),
};

/** The contracts the stage's settings name on `network`, as they are written there: its USDT, and on
 * the EVM networks Cambio's forwarder factory and implementation. */
export const stageContractsOn = (network: NetworkName, settings: ContractSettings): string[] => STAGE_CONTRACTS[network](settings);
