import { TRON_STAGE_SETTINGS, tronIsOpen, tronStageContracts } from './tron/settings.ts';
import { EVM_STAGE_SETTINGS, evmIsOpen, evmStageContracts, type EvmNetworkName, type EvmNetworkSettings } from './evm/settings.ts';
import { SOLANA_STAGE_SETTINGS, solanaIsOpen, solanaStageContracts } from './solana/settings.ts';
import type { SolanaNetworkSettings } from './solana/settings.ts';
import type { NetworkName } from './names.ts';

/** The registered networks' own stage settings, for functions/settings/schema.ts. Apart from
 * registry.ts because every function parses settings, and these must bundle nothing but valibot. */
export const NETWORK_STAGE_SETTINGS = { ...TRON_STAGE_SETTINGS, ...EVM_STAGE_SETTINGS, ...SOLANA_STAGE_SETTINGS };

/** What the stage's settings say of the contracts Cambio uses: TRON's USDT_CONTRACT, and EVM_NETWORKS. */
export type ContractSettings = { USDT_CONTRACT: string; EVM_NETWORKS: Partial<Record<EvmNetworkName, EvmNetworkSettings>>; SOLANA?: SolanaNetworkSettings };

/** What the stage's settings say of which networks it opens: EVM_NETWORKS names the EVM ones. */
export type OpeningSettings = { EVM_NETWORKS?: Partial<Record<EvmNetworkName, unknown>>; SOLANA?: unknown };

/** A network as a stage's settings have it: whether the stage opens it, and the contracts Cambio uses on it. */
interface NetworkOnStage {
  isOpen(settings: OpeningSettings): boolean;
  contracts(settings: ContractSettings): string[];
  /** The network's own withdrawal figures in the stage's settings (USDT, as written), where it has any. */
  withdrawalFigures?(settings: ContractSettings): WithdrawalFigures | undefined;
}

/** A network's own fee and minimum for withdrawals, as its entry in the stage's settings writes them. */
type WithdrawalFigures = { withdrawalFeeUsdt?: string; withdrawalMinimumUsdt?: string };

const ON_STAGE: { readonly [N in NetworkName]: NetworkOnStage } = {
  tron: { isOpen: tronIsOpen, contracts: tronStageContracts },
  ethereum: { isOpen: evmIsOpen('ethereum'), contracts: evmStageContracts('ethereum'), withdrawalFigures: (settings) => settings.EVM_NETWORKS.ethereum },
  bsc: { isOpen: evmIsOpen('bsc'), contracts: evmStageContracts('bsc'), withdrawalFigures: (settings) => settings.EVM_NETWORKS.bsc },
  polygon: { isOpen: evmIsOpen('polygon'), contracts: evmStageContracts('polygon'), withdrawalFigures: (settings) => settings.EVM_NETWORKS.polygon },
  arbitrum: { isOpen: evmIsOpen('arbitrum'), contracts: evmStageContracts('arbitrum'), withdrawalFigures: (settings) => settings.EVM_NETWORKS.arbitrum },
  solana: { isOpen: solanaIsOpen, contracts: solanaStageContracts, withdrawalFigures: (settings) => settings.SOLANA },
};

/** Whether the stage's settings open `network` (functions/networks/open-networks.ts). */
export const isOpenIn = (network: NetworkName, settings: OpeningSettings): boolean => ON_STAGE[network].isOpen(settings);

/** The contracts the stage's settings name on `network`, as they are written there: its USDT, and on
 * the EVM networks Cambio's forwarder factory and implementation. */
export const stageContractsOn = (network: NetworkName, settings: ContractSettings): string[] => ON_STAGE[network].contracts(settings);

/** The network's own withdrawal fee in the stage's settings (an EVM network's or Solana's
 * `withdrawalFeeUsdt`), or undefined: the stage's WITHDRAWAL_FEE_USDT then. */
export const ownWithdrawalFeeOn = (network: NetworkName, settings: ContractSettings): string | undefined => ON_STAGE[network].withdrawalFigures?.(settings)?.withdrawalFeeUsdt;

/** The network's own withdrawal minimum in the stage's settings (an EVM network's or Solana's
 * `withdrawalMinimumUsdt`), or undefined: the stage's WITHDRAWAL_MINIMUM_USDT then. */
export const ownWithdrawalMinimumOn = (network: NetworkName, settings: ContractSettings): string | undefined => ON_STAGE[network].withdrawalFigures?.(settings)?.withdrawalMinimumUsdt;
