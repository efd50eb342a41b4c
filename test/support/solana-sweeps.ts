/**
 * Solana's deposits and sweeps as the tests over a local node (test/support/solana.ts useSolanaNode)
 * run them: deposit creation with the stage's SOLANA, the customer wallet paying as wallets do, the
 * deposit poller's scan and confirmation wired as functions/handlers/jobs/deposit-poller.ts wires
 * them, and the sweeper as the deposit-sweeper job builds it (functions/networks/solana/sweeps.ts
 * solanaSweepDepsFrom).
 */
import type { Signature } from '@solana/kit';
import { STAGES } from '../../config/stages.ts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import type { DepositSettings } from '#functions/deposits/deposits';
import type { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { SOLANA_CURSOR_NAME } from '#functions/networks/solana/from-settings';
import type { SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { solanaSweepDepsFrom, type SolanaSweeper } from '#functions/networks/solana/sweeps';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import type { TestTable } from './dynamo.ts';
import { usdt } from './money.ts';
import { FINALITY_DEPTH, nodeChainOf, sendSolanaTransaction, usdtPaymentInstructions, type SolanaNode } from './solana.ts';

/** The stage's deposit terms with SOLANA set (TRON open beside it, as on every stage), Solana's
 * read from the table where the sweeper wrote the owners ahead. */
export function solanaDepositSettings(env: TestTable, network: SolanaNetworkSettings): DepositSettings {
  return depositSettingsFrom(
    { DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB, DEPOSIT_REQUIRED_CONFIRMATIONS: 19, EVM_NETWORKS: {}, SOLANA: network, USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT },
    { db: env.db, tableName: env.tableName },
  );
}

/**
 * The deposit poller's jobs on Solana, as deposit-poller.ts runs them: the scan from Solana's
 * cursor, confirmation at `finalized`, a payment held while the issuer has frozen its deposit
 * address's token account or the screening list names its payer. `settle` lets the slots pass that
 * make what was paid final, then scans and confirms.
 */
export function solanaDepositJobs(env: TestTable, node: SolanaNode, chain = nodeChainOf(node)) {
  const store = new DynamoDepositChainStore(env.db, env.tableName, 'solana');
  const holds: DepositHolds = {
    frozenAddresses: (owners) => chain.frozenAmong(node.mint, owners),
    sanctioned: (addresses) => screeningListOf(env.db, env.tableName).listed('solana', addresses),
    usdtAt: (owners) => chain.usdtBalances(node.mint, owners),
  };
  const deps = () => ({ network: 'solana' as const, chain, store, usdtContract: node.mint, holds });
  const scanOnce = (owner = 'scanner-a') => scanDeposits({ ...deps(), cursor: new DynamoScanCursor(env.db, env.tableName, SOLANA_CURSOR_NAME), owner });
  /** Scans until the cursor reaches the newest slot, as the poller catches up; what the scans recorded. */
  async function scan() {
    let recorded = 0;
    for (;;) {
      const run = await scanOnce();
      recorded += run.recorded;
      if (run.lagBlocks === null || run.lagBlocks <= 0) return { recorded, lagBlocks: run.lagBlocks };
    }
  }
  const confirm = () => confirmDeposits(deps());
  const release = () => releaseUnfrozen(deps());
  async function settle() {
    node.advanceSlots(FINALITY_DEPTH + 1);
    await scan();
    return confirm();
  }
  return { store, chain, deps, scanOnce, scan, confirm, release, settle };
}

/** The customer wallet pays `amount` USDT (minor units) to `owner`, creating its token account
 * when it has none, as wallets do; the transaction lands in the node's current slot. */
export async function customerPays(node: SolanaNode, owner: string, amount: bigint): Promise<Signature> {
  return sendSolanaTransaction(node, node.customer.signer, await usdtPaymentInstructions(node, node.customer.signer, owner, amount));
}

/** The sweeper as the job builds it for the node, its minimum 1 USDT (the stage's SWEEP_MINIMUM_USDT
 * where SOLANA names none); `chain`: a reader the test wraps (a broadcast lost). */
export function solanaSweeper(env: TestTable, network: SolanaNetworkSettings, { chain }: { chain?: SolanaRpcChain } = {}): SolanaSweeper {
  return solanaSweepDepsFrom({ SOLANA: network, SWEEP_MINIMUM_USDT: usdt('1') }, { db: env.db, tableName: env.tableName }, chain ? { chain } : {});
}
