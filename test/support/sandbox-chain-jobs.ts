import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { TronTransferBuilder } from '#functions/networks/tron/tron-transfer-builder';
import { DynamoSweepStore } from '#functions/networks/tron/sweep-store';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { HdDepositKeySigner } from '#functions/networks/tron/deposit-key-signer';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import type { TransactionSigner } from '#functions/networks/signer';
import type { SweepDeps } from '#functions/networks/tron/sweeps';
import type { SendingDeps } from '#functions/networks/tron/withdrawal-sending';
import type { Broadcaster } from '#functions/networks/chain';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { STAGES } from '../../config/stages.ts';
import { useFreshTable, type TestTable } from './dynamo.ts';

/**
 * The time of a test over the sandbox chain: it moves only when the test says, by blocks or by
 * milliseconds, so "19 blocks later" and "past the transaction's lifetime" are exact, not waited for.
 * Give `epochMs` to the sandbox chain and `now` to the jobs.
 */
export class ChainClock {
  private ms: number;

  constructor(
    start: string,
    private readonly blockMs: number,
  ) {
    this.ms = Date.parse(start);
  }

  readonly now = (): Date => new Date(this.ms);
  readonly epochMs = (): number => this.ms;
  readonly advanceBlocks = (blocks: number): void => {
    this.ms += blocks * this.blockMs;
  };
  readonly advance = (ms: number): void => {
    this.ms += ms;
  };
  readonly setTo = (epochMs: number): void => {
    this.ms = epochMs;
  };
}

/** TRON's block time, at which the chain-job tests' sandbox chain mines. */
export const BLOCK_MS = 3000;
/** The local stage's USDT contract and hot wallet key (config/stages.ts): the sandbox chain's. */
export const USDT = STAGES.local.functionEnvironment.USDT_CONTRACT;
export const HOT_WALLET_KEY = STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!;

/** The sandbox chain over a test's table, on its clock, solidifying after 19 blocks as TRON does;
 * `treasury` is the hot wallet that may be granted TRX for fees. */
/**
 * What the payout and sweep tests stand on: a fresh table (dynamo.ts useFreshTable),
 * the chain's clock from `startsAt`, the local hot wallet, and a sandbox chain over that table
 * whose treasury is the hot wallet. Call it at a test file's top level (it registers the table's hooks).
 */
export function sandboxChainWithHotWallet(startsAt: string): { env: TestTable; clock: ChainClock; hotWallet: LocalKeySigner; chain: SandboxChain } {
  const env = useFreshTable();
  const clock = new ChainClock(startsAt, BLOCK_MS);
  const hotWallet = new LocalKeySigner(HOT_WALLET_KEY);
  return { env, clock, hotWallet, chain: sandboxChainOver(env, clock, () => hotWallet.address()) };
}

export function sandboxChainOver(table: { db: DynamoDBDocumentClient; tableName: string }, clock: ChainClock, treasury?: () => Promise<string>): SandboxChain {
  return new SandboxChain(table.db, table.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19, now: clock.epochMs, ...(treasury && { treasury }) });
}

/** Transfers built as the local runtime builds them on the sandbox chain (its USDT, a 30 TRX fee limit). */
/** A broadcaster whose every broadcast fails before reaching the chain, as `reason` says: a process
 * killed before it sent, or TronGrid down. */
export const failingBroadcaster = (reason: string): Broadcaster => ({ broadcast: async () => Promise.reject(new Error(reason)) });

export const sandboxTransferBuilder = (chain: SandboxChain): TronTransferBuilder => new TronTransferBuilder(chain, { usdtContract: USDT, feeLimitSun: 30_000_000 });

/** The withdrawal sender's dependencies as the local runtime wires them over the sandbox chain:
 * the chain reads and broadcasts, `signer` is the hot wallet, the table holds the rest. */
export function sandboxSending(
  table: { db: DynamoDBDocumentClient; tableName: string },
  chain: SandboxChain,
  signer: TransactionSigner,
  clock: ChainClock,
  more: Partial<SendingDeps> & { builder?: TronTransferBuilder } = {},
): SendingDeps & { builder: TronTransferBuilder } {
  return {
    chain,
    builder: sandboxTransferBuilder(chain),
    broadcaster: chain,
    signer,
    store: new DynamoWithdrawalSendingStore(table.db, table.tableName, 'tron'),
    claims: new DynamoTransactionClaims(table.db, table.tableName),
    now: clock.now,
    ...more,
  };
}

/** The sweeper's dependencies as the local runtime wires them over the sandbox chain: deposit keys
 * from the local stage's account, `hotWallet` tops up fees and receives the sweeps. */
export function sandboxSweeping(
  table: { db: DynamoDBDocumentClient; tableName: string },
  chain: SandboxChain,
  hotWallet: TransactionSigner,
  clock: ChainClock,
  settings: SweepDeps['settings'],
  builder = sandboxTransferBuilder(chain),
): SweepDeps {
  return {
    chain,
    usdtBalanceOf: (address) => chain.tokenBalance(USDT, address),
    feeBalanceOf: (address) => chain.feeBalance(address),
    broadcaster: chain,
    builder,
    hotWallet,
    depositKeys: new HdDepositKeySigner(async () => STAGES.local.functionEnvironment.LOCAL_DEPOSIT_ACCOUNT_XPRV!),
    store: new DynamoSweepStore(table.db, table.tableName),
    claims: new DynamoTransactionClaims(table.db, table.tableName),
    settings,
    now: clock.now,
  };
}
