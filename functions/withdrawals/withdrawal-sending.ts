import { domainEvent, type DomainEvent } from '../shared/events.ts';
import { EXTERNAL_ACCOUNTS, companyAccount, networkAccount, ledgerEntry, type LedgerEntry, type Posting } from '../ledger/ledger.ts';
import { withdrawalView, type NetworkCost, type Withdrawal } from './withdrawals.ts';
import type { TransactionReceipt } from '../networks/chain.ts';
import type { ScreeningList } from '../screening/screening-list.ts';
import { stderrLog, type Log } from '../shared/log.ts';

/**
 * Sending a withdrawal exactly once (../shared/api-contract.md, Withdrawals): the transaction is
 * built and signed, its id and signed body are stored with the claim `pending → processing`
 * (a conditional write, so two senders never take the same withdrawal), and only then broadcast.
 * A sender that dies before broadcasting leaves a stored transaction that the next run
 * broadcasts again; the chain accepts one transaction per id, so it is never sent twice. The id
 * is claimed for this withdrawal alone in the same write (functions/withdrawals/payouts.ts), so two
 * equal withdrawals can never share one transaction.
 */
export interface WithdrawalSendingStore extends ScreeningList {
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

/** What every network's sender reads of a run: the withdrawals, the hot wallet's USDT, the time left. */
export interface SendingRun {
  store: WithdrawalSendingStore;
  /** USDT the hot wallet holds on chain, or null where the chain does not limit what it sends
   * (the sandbox chain moves any amount). Absent: not checked. */
  hotWalletUsdt?: () => Promise<bigint | null>;
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

/** The most payouts, pending and processing each, that a sweeper counts to keep the fee coin they
 * need (a family's sweeps spend the same coin: its top-ups, its account openings): past this many the
 * reserve is taken as this many payouts' fees, and counting costs the sweeper no more reads. */
export const PAYOUTS_COUNTED_AT_MOST = 500;

/** The withdrawals in a status, oldest first, a page at a time, while the run has more than
 * `reserveMs` left (null: to the end, whatever the time). Ones that change status meanwhile are
 * skipped by the guarded writes. Pending ones to send are read through sendablePages, which screens
 * them; these are for settling and counting. */
export async function* withdrawalsIn(deps: Pick<SendingRun, 'store' | 'timeLeftMs'>, status: 'pending' | 'processing', reserveMs: number | null): AsyncGenerator<Withdrawal> {
  for await (const page of withdrawalPagesIn(deps, status, reserveMs)) yield* page;
}

/** withdrawalsIn a page at a time: for settling, whose withdrawals are independent of each other. */
export async function* withdrawalPagesIn(deps: Pick<SendingRun, 'store' | 'timeLeftMs'>, status: 'pending' | 'processing', reserveMs: number | null): AsyncGenerator<Withdrawal[]> {
  let afterId: string | undefined;
  for (;;) {
    if (reserveMs !== null && deps.timeLeftMs && deps.timeLeftMs() < reserveMs) return;
    const page = await deps.store.withdrawalsInStatus(status, SEND_BATCH, afterId);
    if (page.length > 0) yield page;
    if (page.length < SEND_BATCH) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** What a run's sending reads: its withdrawals, the time left, the clock and log a withdrawal
 * failed before it is sent goes by, and whom its payouts' money reaches (ScreeningRun). */
export type PendingRun = Pick<SendingRun, 'store' | 'timeLeftMs'> & ScreeningRun & { now?: () => Date; log?: Log };

/** What screening a payout at send time reads. */
export interface ScreeningRun {
  store: ScreeningList;
  /** The wallet the money paid to each of `destinations` reaches where that is another address,
   * read on the chain now (a token account: its owner, who may have handed it to another wallet
   * since the request; the list names wallets, never their token accounts). Absent, or a
   * destination it does not name: the destination is what the money reaches. One network's, the
   * sender's own. */
  reachedThrough?: (destinations: string[]) => Promise<Map<string, string>>;
}

/** Why a withdrawal failed before it was signed, pending or about to be signed again (nothing it was
 * signed for before could land): its destination is on the sanctions screening list now
 * (docs/api-notes.md, Withdrawals). */
export const DESTINATION_SANCTIONED = 'DESTINATION_SANCTIONED';

/**
 * The pending withdrawals a run may send, oldest first, a page at a time while the run has more than
 * SETTLE_RESERVE_MS left, every network's sender reading them here. The request was screened when it
 * was made, but a withdrawal may wait `pending` for hours (the float, a paused token, no gas), and
 * the list changes meanwhile (the daily OFAC import, `npm run screening:add`): so each page's
 * destinations, and the wallets they reach (`reachedThrough`: a token account's owner, as
 * refuseCambioDestination's `reaching` gave it at the request), are looked up again before any of
 * it is signed, read fresh (sanctionedNow). One listed now fails `DESTINATION_SANCTIONED`
 * (failSanctioned) and is left out. A list never loaded throws (ScreeningListNotLoaded): nothing is
 * sent unscreened.
 */
export async function* sendablePages(deps: PendingRun, result: Pick<SendResult, 'failed'>): AsyncGenerator<Withdrawal[]> {
  for await (const page of withdrawalPagesIn(deps, 'pending', SETTLE_RESERVE_MS)) {
    const sendable = await withoutSanctioned(deps, page, result);
    if (sendable.length > 0) yield sendable;
  }
}

/** sendablePages a withdrawal at a time: for a sender that claims one after another (a nonce each). */
export async function* sendableWithdrawals(deps: PendingRun, result: Pick<SendResult, 'failed'>): AsyncGenerator<Withdrawal> {
  for await (const page of sendablePages(deps, result)) yield* page;
}

async function withoutSanctioned(deps: PendingRun, page: Withdrawal[], result: Pick<SendResult, 'failed'>): Promise<Withdrawal[]> {
  const sanctioned = await sanctionedNow(deps, page);
  for (const withdrawal of sanctioned) await failSanctioned(deps, withdrawal, result);
  return page.filter((withdrawal) => !sanctioned.has(withdrawal));
}

/** Those of `withdrawals` whose destination, or the wallet it reaches (`reachedThrough`), is on the
 * screening list now: read fresh, one lookup (a BatchGetItem with the list's version) a network. */
export async function sanctionedNow(deps: ScreeningRun, withdrawals: Withdrawal[]): Promise<Set<Withdrawal>> {
  const sanctioned = new Set<Withdrawal>();
  for (const network of new Set(withdrawals.map((withdrawal) => withdrawal.network))) {
    const ofNetwork = withdrawals.filter((withdrawal) => withdrawal.network === network);
    const destinations = [...new Set(ofNetwork.map((withdrawal) => withdrawal.address))];
    const reached = (await deps.reachedThrough?.(destinations)) ?? new Map<string, string>();
    const listed = await deps.store.listed(network, [...new Set([...destinations, ...reached.values()])], { fresh: true });
    for (const withdrawal of ofNetwork) {
      const owner = reached.get(withdrawal.address);
      if (listed.has(withdrawal.address) || (owner !== undefined && listed.has(owner))) sanctioned.add(withdrawal);
    }
  }
  return sanctioned;
}

/**
 * Fails a withdrawal whose destination is listed (sanctionedNow) before anything of it is signed:
 * `DESTINATION_SANCTIONED`, its amount and fee back to `available` (`withdrawal.failed`, as any
 * failed payout), counted in `result.failed`. Only for one no transaction of which can still land:
 * a pending one, or one processing whose transactions can no longer (the sender's to know). False:
 * not written, another run took it in between, and sent it before the listing or failed it too.
 */
export async function failSanctioned(deps: Pick<PendingRun, 'store' | 'now' | 'log'>, withdrawal: Withdrawal, result: Pick<SendResult, 'failed'>): Promise<boolean> {
  const failed = fail(withdrawal, DESTINATION_SANCTIONED, (deps.now ?? (() => new Date()))());
  if (!(await deps.store.transition(withdrawal, failed.after, failed))) return false;
  result.failed++;
  (deps.log ?? stderrLog).error('withdrawal failed before it was signed (again): its destination is on the sanctions screening list now', {
    companyId: withdrawal.companyId,
    withdrawalId: withdrawal.id,
    network: withdrawal.network,
    address: withdrawal.address,
    ...(withdrawal.txHash !== null && { unlandedTxHash: withdrawal.txHash }),
  });
  return true;
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

/**
 * What the hot wallet can still send: its USDT on chain less every withdrawal already `processing`.
 * A processing one already mined is subtracted twice (the chain balance went down too) until it
 * settles, a minute or so: the float errs low, never high. Null: not limited.
 */
export async function spendableFloat(deps: SendingRun): Promise<bigint | null> {
  const held = deps.hotWalletUsdt ? await deps.hotWalletUsdt() : null;
  if (held === null) return null;
  let outgoing = 0n;
  // Every one, time or not: a float summed from part of them would err high.
  for await (const withdrawal of withdrawalsIn(deps, 'processing', null)) outgoing += withdrawal.amount;
  return held - outgoing;
}

/**
 * The float as one run hands it out to payouts claimed side by side (TRON's, Solana's): sent
 * without the USDT on the hot wallet, a transfer would fail on chain and its withdrawal with it, so
 * one the float does not cover waits, pending, and a smaller one behind it may go first. A payout
 * takes its amount before its claim, so the others under way see it gone, and gives it back if it
 * was not sent.
 */
export class PayoutFloat {
  /** `left`: spendableFloat's answer; null, not limited. */
  constructor(private left: bigint | null) {}

  /** `claim` (sign, store and claim the payout `processing`) run within the float: the processing
   * withdrawal, or null when it was not claimed (counted in `result` when the float is short). */
  async claim(withdrawal: Withdrawal, result: SendResult, claim: () => Promise<Withdrawal | null>): Promise<Withdrawal | null> {
    if (this.left !== null) {
      if (withdrawal.amount > this.left) {
        result.awaitingFloat++;
        return null;
      }
      this.left -= withdrawal.amount;
    }
    let processing: Withdrawal | null = null;
    try {
      processing = await claim();
    } finally {
      // Not sent (another sender took it first, or the claim threw): the float has it back.
      if (!processing && this.left !== null) this.left += withdrawal.amount;
    }
    return processing;
  }
}

/** How a run settles: `hotWalletMaySend` false while the token is paused or the hot wallet frozen
 * (functions/networks/token-standing.ts): nothing is sent from it, what lands is settled as ever. */
export interface SettleOptions {
  hotWalletMaySend?: boolean;
}

export interface SettleResult extends SendResult {
  /** Withdrawals still processing after this run for longer than STUCK_PROCESSING_MS. */
  stuck: { count: number; oldestAgeSeconds: number };
}

/** What a final transaction cost the hot wallet, where its chain's receipt says it (feePayerCost);
 * a token account is made by a payout on Solana alone, whose sender tells that itself (payoutCost). */
export function networkCostOf(receipt: TransactionReceipt | null | undefined): NetworkCost | null {
  return receipt?.feePayerCost ? { ...receipt.feePayerCost, tokenAccountCreated: false } : null;
}

/**
 * Locked funds are spent: the amount left for the chain, the fee to Cambio's revenue. `delivered`:
 * what the payee's Transfer event received (below the amount only when the token's issuer charges a
 * fee, which the payee bears: the hot wallet still sent the whole amount), null when the receipt
 * did not say. `networkCost`: what the final transaction cost the hot wallet in the network's coin,
 * null where the network does not tell it; only recorded, no ledger entry (the ledger holds no coin).
 */
export function complete(withdrawal: Withdrawal, now: Date, delivered: bigint | null = null, networkCost: NetworkCost | null = null): WithdrawalChange & { after: Withdrawal } {
  const at = now.toISOString();
  const after: Withdrawal = { ...withdrawal, status: 'completed', completedAt: at, updatedAt: at, deliveredAmount: delivered, networkCost };
  const locked = companyAccount(withdrawal.companyId, 'locked');
  const postings: Posting[] = [{ source: locked, destination: networkAccount(withdrawal.network), currency: 'USDT', amount: withdrawal.amount }];
  if (withdrawal.fee > 0n) postings.push({ source: locked, destination: EXTERNAL_ACCOUNTS.networkFees, currency: 'USDT', amount: withdrawal.fee });
  return {
    after,
    entry: ledgerEntry(withdrawal.companyId, `withdrawal:${withdrawal.id}:completed`, postings, now, withdrawal.network),
    event: domainEvent(withdrawal.companyId, 'withdrawal.completed', withdrawalView(after), now),
  };
}

/** No USDT left the wallet: amount and fee go back to available, and the amount to the daily
 * limit's total of the day that counted it, so a failed payout does not use up the limit.
 * `networkCost`: what a transaction that landed and failed still cost the hot wallet (its fee). */
export function fail(withdrawal: Withdrawal, reason: string, now: Date, networkCost: NetworkCost | null = null): WithdrawalChange & { after: Withdrawal } {
  const at = now.toISOString();
  const after: Withdrawal = { ...withdrawal, status: 'failed', failureReason: reason, updatedAt: at, networkCost };
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
