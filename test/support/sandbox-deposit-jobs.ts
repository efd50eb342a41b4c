import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import type { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { DynamoDepositChainStore, DynamoRescanCursor, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import type { TestTable } from './dynamo.ts';
import { USDT, type ChainClock } from './sandbox-chain-jobs.ts';

/**
 * The deposit poller's jobs on TRON over a test's sandbox chain (sandbox-chain-jobs.ts), as
 * deposit-poller.ts runs them: on the chain's clock, from the 'tron-usdt' cursor, with `holds` (the
 * freeze and sanctions reads) where the test gives them. `scan`'s owner is the lease holder; a test
 * names another to race it. `rescan` reads on where `npm run deposits:rescan` asked (`rescans`). `settle` lets 20 blocks pass, past TRON's 19 to solidify, then scans and
 * confirms: what a payment made before it has become.
 */
export function sandboxDepositJobs(env: TestTable, clock: ChainClock, chain: SandboxChain, { holds }: { holds?: DepositHolds } = {}) {
  const store = new DynamoDepositChainStore(env.db, env.tableName, 'tron');
  const deps = () => ({ network: 'tron' as const, chain, store, usdtContract: USDT, now: clock.now, ...(holds && { holds }) });
  const cursor = () => new DynamoScanCursor(env.db, env.tableName, 'tron-usdt');
  const scan = (owner = 'scanner-a') => scanDeposits({ ...deps(), cursor: cursor(), owner });
  const rescans = new DynamoRescanCursor(env.db, env.tableName, 'tron-usdt');
  const rescan = () => scanDeposits({ ...deps(), cursor: rescans, owner: 'rescanner' });
  async function settle() {
    clock.advanceBlocks(20);
    await scan();
    return confirmDeposits(deps());
  }
  return { store, deps, cursor, scan, rescans, rescan, settle };
}
