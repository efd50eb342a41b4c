import { createTestClient, http } from 'viem';
import { afterAll, beforeAll } from 'vitest';
import type { EvmNetworkSettings } from '#functions/networks/evm/settings';
import { startAnvilWithContracts, type Anvil } from '#local/anvil';
import { localPublicClient, type NetworkContracts } from '#local/evm-contracts';

/** The tests start their EVM nodes as `npm start` does (local/anvil.ts): one anvil per call. */
export { startAnvil, startAnvilWithContracts, type Anvil } from '#local/anvil';

export type AnvilWithContracts = Anvil & NetworkContracts;

type AnvilOptions = Parameters<typeof startAnvilWithContracts>[0];

/**
 * A test file's anvils with Cambio's contracts on them (startAnvilWithContracts), by name: started
 * side by side before its first test, stopped after its last. They are there once the tests run.
 */
export function useAnvilsWithContracts<Name extends string>(options: Record<Name, AnvilOptions>): Record<Name, AnvilWithContracts> {
  const nodes = {} as Record<Name, AnvilWithContracts>;
  beforeAll(async () => {
    await Promise.all(
      (Object.entries(options) as [Name, AnvilOptions][]).map(async ([name, start]) => {
        nodes[name] = await startAnvilWithContracts(start);
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(Object.values<AnvilWithContracts>(nodes).map((node) => node.stop()));
  });
  return nodes;
}

/**
 * A test file's one anvil (useAnvilsWithContracts): `node` is there once the tests run; `client`
 * reads it, `testClient` drives it (automine, balances, the next base fee) and `mine` adds blocks.
 */
export function useAnvilWithContracts(options: AnvilOptions) {
  const nodes = useAnvilsWithContracts({ node: options });
  const anvil = {
    get node() {
      return nodes.node;
    },
  };
  const testClient = () => createTestClient({ chain: anvil.node.chain, mode: 'anvil', transport: http(anvil.node.url) });
  return Object.assign(anvil, { client: () => localPublicClient(anvil.node.chain), testClient, mine: (blocks: number) => testClient().mine({ blocks }) });
}

/** A stage's EVM_NETWORKS entry for a test's anvil: its URL and contracts, final at a depth of
 * `confirmations` (anvil's `finalized` is its head), read `maxBlockRange` blocks at a time. */
export const anvilNetworkSettings = (node: AnvilWithContracts, { chainId, confirmations, maxBlockRange = 1_000 }: { chainId: number; confirmations: number; maxBlockRange?: number }): EvmNetworkSettings => ({
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
