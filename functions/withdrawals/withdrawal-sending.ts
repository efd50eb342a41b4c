import { receivedBy, sentTransactionOutcome, type Broadcaster, type ChainReader, type TransferBuilder } from '../networks/chain.ts';
import { domainEvent, type DomainEvent } from '../shared/events.ts';
import { EXTERNAL_ACCOUNTS, companyAccount, networkAccount, ledgerEntry, type LedgerEntry, type Posting } from '../ledger/ledger.ts';
import { DuplicateOfAnotherPayout, SIGNING_ATTEMPTS, TransactionIdTaken, broadcastOwned, withdrawalOwner, type TransactionClaims } from './payouts.ts';
import type { TransactionSigner } from '../networks/signer.ts';
import { withdrawalView, type Withdrawal } from './withdrawals.ts';
import { stderrLog, type Log } from '../shared/log.ts';
import { inParallel } from '../shared/in-parallel.ts';

/**
 * Sending a withdrawal exactly once (../shared/api-contract.md, Withdrawals): the transaction is
 * built and signed, its id and signed body are stored with the claim `pending → processing`
 * (a conditional write, so two senders never take the same withdrawal), and only then broadcast.
 * A sender that dies before broadcasting leaves a stored transaction that the next run
 * broadcasts again; the chain accepts one transaction per id, so it is never sent twice. The id
 * is claimed for this withdrawal alone in the same write (functions/withdrawals/payouts.ts), so two
 * equal withdrawals can never share one transaction.
 */
export interface WithdrawalSendingStore {
  /** Oldest first; `afterId`: only those after that withdrawal (the next page). */
  withdrawalsInStatus(status: 'pending' | 'processing', limit: number, afterId?: string): Promise<Withdrawal[]>;
  /** Writes `after` if the withdrawal is still as `before` says (status and transaction). When
   * `after` carries a transaction id `before` did not, the id is claimed for this withdrawal in the
   * same write: TransactionIdTaken when another payout holds it (nothing is written).
   * `limitRelease`: the amount a failed withdrawal gives back to the daily-limit total of its day. */
  transition(before: Withdrawal, after: Withdrawal, change: WithdrawalChange): Promise<boolean>;
}

export interface WithdrawalChange {
  entry: LedgerEntry | null;
  event: DomainEvent | null;
  limitRelease?: { day: string; amount: bigint };
}

export interface SendingDeps {
  chain: ChainReader;
  builder: TransferBuilder;
  broadcaster: Broadcaster;
  signer: TransactionSigner;
  store: WithdrawalSendingStore;
  claims: TransactionClaims;
  /** USDT the hot wallet holds on chain, or null where the chain does not limit what it sends
   * (the sandbox chain moves any amount). Absent: not checked. */
  hotWalletUsdt?: () => Promise<bigint | null>;
  now?: () => Date;
  /** The run's logger; stderr JSON when absent. */
  log?: Log;
  /** What is left of the run's time (the Lambda's remaining time); absent: no limit. */
  timeLeftMs?: () => number;
}

/** Withdrawals read per page. A run goes on to the next page while it has time: the sender runs
 * once a minute in AWS, so one page a run would cap payouts at this many a minute. */
export const SEND_BATCH = 25;

/** Sending stops taking new pages with this much of the run left, for settling after it. */
export const SETTLE_RESERVE_MS = 20_000;
/** Settling stops reading further with this much left: the rest settle on the next run. */
export const FINISH_RESERVE_MS = 5_000;

/** The withdrawals in a status, oldest first, a page at a time, while the run has more than
 * `reserveMs` left (null: to the end, whatever the time). Ones that change status meanwhile are
 * skipped by the guarded writes. */
export async function* withdrawalsIn(deps: Pick<SendingDeps, 'store' | 'timeLeftMs'>, status: 'pending' | 'processing', reserveMs: number | null): AsyncGenerator<Withdrawal> {
  for await (const page of withdrawalPagesIn(deps, status, reserveMs)) yield* page;
}

/** withdrawalsIn a page at a time: for settling, whose withdrawals are independent of each other. */
export async function* withdrawalPagesIn(deps: Pick<SendingDeps, 'store' | 'timeLeftMs'>, status: 'pending' | 'processing', reserveMs: number | null): AsyncGenerator<Withdrawal[]> {
  let afterId: string | undefined;
  for (;;) {
    if (reserveMs !== null && deps.timeLeftMs && deps.timeLeftMs() < reserveMs) return;
    const page = await deps.store.withdrawalsInStatus(status, SEND_BATCH, afterId);
    if (page.length > 0) yield page;
    if (page.length < SEND_BATCH) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** Withdrawals of a page settled side by side: each is its own receipt reads and its own guarded
 * write, so a page costs about the slowest of them rather than their sum (the payouts bench). */
export const SETTLE_IN_FLIGHT = 8;

export interface SendResult {
  sent: number;
  rebroadcast: number;
  completed: number;
  failed: number;
  /** Pending withdrawals left waiting this run: the hot wallet's USDT, less what is already on
   * its way out, does not cover them (the sweeper or treasury must top it up). */
  awaitingFloat: number;
}

export async function sendWithdrawals(deps: SendingDeps): Promise<SendResult> {
  const now = deps.now ?? (() => new Date());
  const result: SendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };
  let from: string | undefined;
  let float: bigint | null | undefined;
  // A TRON transaction has no nonce: the payouts of a page are signed, claimed and broadcast side by
  // side, in order of age, each its own transaction (the builder gives each its own timestamp).
  const send = async (withdrawal: Withdrawal) => {
    // Sent without the USDT on the hot wallet, the transfer would revert on chain and the
    // withdrawal fail: it waits, pending, and a smaller one behind it may go first. Taken from the
    // float before the claim (the others under way see it gone), given back if not sent.
    if (typeof float === 'bigint') {
      if (withdrawal.amount > float) {
        result.awaitingFloat++;
        return;
      }
      float -= withdrawal.amount;
    }
    let processing: Withdrawal | null = null;
    try {
      processing = await signAndClaim(deps, withdrawal, from!, now, { announce: true });
    } finally {
      // Not sent (another sender took it first, or the claim threw): the float has it back.
      if (!processing && typeof float === 'bigint') float += withdrawal.amount;
    }
    if (!processing) return;
    result.sent++;
    try {
      await broadcastStored(deps, processing, now);
    } catch (error) {
      // Stored and signed: settleWithdrawals broadcasts it again on a later run.
      (deps.log ?? stderrLog).error('broadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  };
  for await (const page of withdrawalPagesIn(deps, 'pending', SETTLE_RESERVE_MS)) {
    // Read once a run, and only when something is pending.
    from ??= await deps.signer.address();
    if (float === undefined) float = await spendableFloat(deps);
    await inParallel(page, SEND_IN_FLIGHT, send);
  }
  return result;
}

/** TRON payouts signed, claimed and broadcast at once by one run. */
export const SEND_IN_FLIGHT = 8;

/**
 * What the hot wallet can still send: its USDT on chain less every withdrawal already `processing`.
 * A processing one already mined is subtracted twice (the chain balance went down too) until it
 * settles, a minute or so: the float errs low, never high. Null: not limited.
 */
export async function spendableFloat(deps: Pick<SendingDeps, 'store' | 'timeLeftMs' | 'hotWalletUsdt'>): Promise<bigint | null> {
  const held = deps.hotWalletUsdt ? await deps.hotWalletUsdt() : null;
  if (held === null) return null;
  let outgoing = 0n;
  // Every one, time or not: a float summed from part of them would err high.
  for await (const withdrawal of withdrawalsIn(deps, 'processing', null)) outgoing += withdrawal.amount;
  return held - outgoing;
}

/**
 * Signs a transfer for the withdrawal and stores it, claimed, as `processing` (or, for one already
 * processing whose transaction turned out not to be its own, in place of that transaction). A
 * transaction id another payout holds is signed afresh: the builder's next transaction has
 * another timestamp, so another id. Null: the withdrawal moved on in between.
 */
async function signAndClaim(deps: SendingDeps, withdrawal: Withdrawal, from: string, now: () => Date, { announce }: { announce: boolean }): Promise<Withdrawal | null> {
  for (let attempt = 1; ; attempt++) {
    const unsigned = await deps.builder.usdtTransfer({ from, to: withdrawal.address, amount: withdrawal.amount });
    const signature = await deps.signer.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
    const signed = deps.builder.signed(unsigned, signature);
    const processing: Withdrawal = {
      ...withdrawal,
      status: 'processing',
      txHash: unsigned.txId,
      transaction: { signed: JSON.stringify(signed), expiresAt: unsigned.expiresAt, broadcastAt: null },
      updatedAt: now().toISOString(),
    };
    try {
      const event = announce ? domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), now()) : null;
      return (await deps.store.transition(withdrawal, processing, { entry: null, event })) ? processing : null;
    } catch (error) {
      if (!(error instanceof TransactionIdTaken) || attempt >= SIGNING_ATTEMPTS) throw error;
      (deps.log ?? stderrLog).warn('transaction id already claimed by another payout; signing afresh', { withdrawalId: withdrawal.id, txId: error.txId });
    }
  }
}

export interface SettleResult extends SendResult {
  /** Withdrawals still processing after this run for longer than STUCK_PROCESSING_MS. */
  stuck: { count: number; oldestAgeSeconds: number };
}

/** Settles sent withdrawals by their receipts once final, and rebroadcasts any whose
 * broadcast was lost (a sender that died between storing and broadcasting). Reports those still
 * processing for too long (read oldest first, so the oldest age is exact even when the run's time
 * ends before the last page). */
export async function settleWithdrawals(deps: SendingDeps): Promise<SettleResult> {
  const now = deps.now ?? (() => new Date());
  const result: SettleResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, stuck: { count: 0, oldestAgeSeconds: 0 } };
  // Read once a run, when the first withdrawal needs it.
  let final: ReturnType<SendingDeps['chain']['finalBlock']> | undefined;
  const remaining: Withdrawal[] = [];
  const settle = async (withdrawal: Withdrawal) => {
    final ??= deps.chain.finalBlock();
    const expiresAt = Date.parse(withdrawal.transaction!.expiresAt!);
    const { seen: receipt, settled: verdict } = await sentTransactionOutcome(deps.chain, withdrawal.txHash!, withdrawal.transaction!.expiresAt, await final);
    if (verdict && !(await ownsTransaction(deps, withdrawal))) {
      // Signed before claims existed and collapsed into another payout's identical transaction:
      // that receipt is not this withdrawal's. It gets a transaction of its own.
      await signAndClaim(deps, withdrawal, await deps.signer.address(), now, { announce: false });
      remaining.push(withdrawal);
      return;
    }
    if (verdict) {
      const settled = verdict === 'expired' ? fail(withdrawal, 'TRANSACTION_EXPIRED', now()) : verdict.result === 'SUCCESS' ? complete(withdrawal, now(), receivedBy(verdict, withdrawal.address)) : fail(withdrawal, verdict.result, now());
      if (await deps.store.transition(withdrawal, settled.after, settled)) {
        if (settled.after.status === 'completed') result.completed++;
        else result.failed++;
      }
      return;
    }
    remaining.push(withdrawal);
    if (receipt) return; // in a block, not yet final
    if (!withdrawal.transaction!.broadcastAt && now().getTime() < expiresAt) {
      await broadcastStored(deps, withdrawal, now);
      result.rebroadcast++;
    }
  };
  for await (const page of withdrawalPagesIn(deps, 'processing', FINISH_RESERVE_MS)) await inParallel(page, SETTLE_IN_FLIGHT, settle);
  result.stuck = stuckProcessing(remaining, now());
  return result;
}

async function ownsTransaction(deps: SendingDeps, withdrawal: Withdrawal): Promise<boolean> {
  const owner = withdrawalOwner(withdrawal.id);
  return (await deps.claims.claimIfFree(withdrawal.txHash!, owner)) === owner;
}

async function broadcastStored(deps: SendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> {
  const transaction = withdrawal.transaction!;
  try {
    await broadcastOwned(deps.broadcaster, deps.claims, withdrawal.txHash!, JSON.parse(transaction.signed) as Record<string, unknown>, withdrawalOwner(withdrawal.id));
  } catch (error) {
    if (!(error instanceof DuplicateOfAnotherPayout)) throw error;
    // The chain holds another payout's transaction under this id: this withdrawal was not sent.
    (deps.log ?? stderrLog).error(error.message, { withdrawalId: withdrawal.id });
    await signAndClaim(deps, withdrawal, await deps.signer.address(), now, { announce: false });
    return;
  }
  const broadcast: Withdrawal = { ...withdrawal, transaction: { ...transaction, broadcastAt: now().toISOString() } };
  await deps.store.transition(withdrawal, broadcast, { entry: null, event: null });
}

/**
 * Locked funds are spent: the amount left for the chain, the fee to Cambio's revenue. `delivered`:
 * what the payee's Transfer event received (below the amount only when the token's issuer charges a
 * fee, which the payee bears: the hot wallet still sent the whole amount), null when the receipt
 * did not say.
 */
export function complete(withdrawal: Withdrawal, now: Date, delivered: bigint | null = null): WithdrawalChange & { after: Withdrawal } {
  const at = now.toISOString();
  const after: Withdrawal = { ...withdrawal, status: 'completed', completedAt: at, updatedAt: at, deliveredAmount: delivered };
  const locked = companyAccount(withdrawal.companyId, 'locked');
  const postings: Posting[] = [{ source: locked, destination: networkAccount(withdrawal.network), currency: 'USDT', amount: withdrawal.amount }];
  if (withdrawal.fee > 0n) postings.push({ source: locked, destination: EXTERNAL_ACCOUNTS.networkFees, currency: 'USDT', amount: withdrawal.fee });
  return {
    after,
    entry: ledgerEntry(withdrawal.companyId, `withdrawal:${withdrawal.id}:completed`, postings, now, withdrawal.network),
    event: domainEvent(withdrawal.companyId, 'withdrawal.completed', withdrawalView(after), now),
  };
}

/** Nothing left the wallet: amount and fee go back to available, and the amount to the daily
 * limit's total of the day that counted it, so a failed payout does not use up the limit. */
export function fail(withdrawal: Withdrawal, reason: string, now: Date): WithdrawalChange & { after: Withdrawal } {
  const at = now.toISOString();
  const after: Withdrawal = { ...withdrawal, status: 'failed', failureReason: reason, updatedAt: at };
  const entry = ledgerEntry(
    withdrawal.companyId,
    `withdrawal:${withdrawal.id}:failed`,
    [{ source: companyAccount(withdrawal.companyId, 'locked'), destination: companyAccount(withdrawal.companyId, 'available'), currency: 'USDT', amount: withdrawal.amount + withdrawal.fee }],
    now,
    withdrawal.network,
  );
  const limitRelease = withdrawal.limitDay === null ? undefined : { day: withdrawal.limitDay, amount: withdrawal.amount };
  return { after, entry, event: domainEvent(withdrawal.companyId, 'withdrawal.failed', withdrawalView(after), now), limitRelease };
}

/** How long a withdrawal may stay `processing` before devops should look: a TRON transaction is
 * final within a minute and expires after 5, so 15 minutes means settling is stuck. */
export const STUCK_PROCESSING_MS = 15 * 60_000;

/** Processing withdrawals older than `olderThanMs` (since the claim that signed them), for the alarm. */
export function stuckProcessing(processing: Withdrawal[], now: Date, olderThanMs = STUCK_PROCESSING_MS): { count: number; oldestAgeSeconds: number } {
  const ages = processing.map((withdrawal) => now.getTime() - Date.parse(withdrawal.updatedAt)).filter((age) => age > olderThanMs);
  return { count: ages.length, oldestAgeSeconds: ages.length ? Math.floor(Math.max(...ages) / 1000) : 0 };
}
