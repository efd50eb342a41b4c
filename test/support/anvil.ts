import type { EvmNetworkSettings } from '#functions/networks/evm/settings';
import type { Anvil } from '#local/anvil';
import type { NetworkContracts } from '#local/evm-contracts';

/** The tests start their EVM nodes as `npm start` does (local/anvil.ts): one anvil per call. */
export { startAnvil, startAnvilWithContracts, type Anvil } from '#local/anvil';

/** A stage's EVM_NETWORKS entry for a test's anvil: its URL and contracts, final at a depth of
 * `confirmations` (anvil's `finalized` is its head), read `maxBlockRange` blocks at a time. */
export const anvilNetworkSettings = (node: Anvil & NetworkContracts, { chainId, confirmations, maxBlockRange = 1_000 }: { chainId: number; confirmations: number; maxBlockRange?: number }): EvmNetworkSettings => ({
  chainId,
  rpcUrl: node.url,
  usdtContract: node.usdt,
  tokenControls: node.tokenControls,
  forwarderFactory: node.factory,
  forwarderImplementation: node.implementation,
  finalizedTag: false,
  confirmations,
  maxBlockRange,
  scanEveryMinutes: 1,
  sweepBatchSize: 100,
  sandbox: true,
});
