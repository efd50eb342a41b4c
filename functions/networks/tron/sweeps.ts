import { tokenFeeEntry, type LedgerEntry } from '../../ledger/ledger.ts';
import { receivedBy, sentTransactionOutcome, type Broadcaster, type ChainReader, type TransferBuilder, type UnsignedTransfer } from '../chain.ts';
import { TransactionIdTaken, broadcastOwned, sweepOwner, type SweepStep, type TransactionClaims } from '../../withdrawals/payouts.ts';
import type { TransactionSigner } from '../signer.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { setAsideFrozen, usdtAtEach, type FrozenAddressList, type FrozenAmong } from '../../deposits/frozen-addresses.ts';
import { duePages } from '../../deposits/due-list.ts';
import { emptyTooSoon, READ_EMPTY_TOO_SOON, sweepAmount, type CountsTaken, type SweepAmount, type SweepCounts } from '../../deposits/sweep-amount.ts';
import { PAYOUTS_COUNTED_AT_MOST, withdrawalsIn, type WithdrawalSendingStore } from '../../withdrawals/withdrawal-sending.ts';

/**
 * Sweeps move confirmed deposit funds from deposit addresses to the hot wallet, which pays for
 * withdrawals. A deposit address only ever received USDT, so it first gets the network's fee asset
 * for the transfer's fee (a top-up from the hot wallet: TRX on TRON, only what the address lacks of
 * the top-up); once that has landed, the address's key (derived from the HD seed, held by the
 * sweeper alone) signs the USDT transfer. What the transfer's fee left of the TRX then goes back to
 * the hot wallet (`reclaiming`): a deposit address is made for one deposit, so TRX left there would
 * be Cambio's money stranded at every address it ever swept. The ledger does not change: this is
 * treasury moving between its own wallets. Each sweep is recorded for reconciliation.
 *
 * Payouts before sweeps: the hot wallet's TRX pays both the top-ups and every payout's energy, and the
 * withdrawal sender, a Lambda of its own on its own lease, sets aside a fee limit of it for each payout
 * it signs only within its run. So the top-ups leave the hot wallet a fee limit for each payout signed
 * and not final and each pending one its USDT covers (payoutReserveSun): spent on top-ups, that TRX
 * would leave those payouts mined OUT_OF_ENERGY or waiting for TRX, where an address left unswept
 * waits a run or more with its credit already available. A pending payout the USDT cannot cover keeps
 * nothing back: the sweeps are what bring its USDT.
 */
export type SweepStatus = 'topping_up' | 'sweeping' | 'reclaiming' | 'done' | 'failed';

export interface Sweep {
  address: string;
  addressIndex: number;
  amount: bigint;
  status: SweepStatus;
  topUpTxHash: string | null;
  sweepTxHash: string | null;
  /** The transfer of the TRX left after the sweep back to the hot wallet; null when too little was left. */
  reclaimTxHash: string | null;
  /** The TRX (sun) that transfer moves back to the hot wallet; null when none was sent, or once it failed or expired. */
  reclaimedSun: bigint | null;
  /** Reclaims signed for this sweep so far (RECLAIM_ATTEMPTS at most); 0 before any. */
  reclaimAttempts: number;
  /** What the sweep takes off its address's counts once its transfer has landed (sweep-amount.ts),
   * in the write that records it; null where the address was never counted, or on sweeps stored
   * before counts were. */
  takenOffCounts: CountsTaken | null;
  /** When the current step's transaction (the top-up, the sweep, then the reclaim) expires unmined;
   * null on sweeps stored without it, which wait for a receipt instead. */
  stepExpiresAt: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SweepCandidate {
  address: string;
  addressIndex: number;
}

export interface SweepStore extends FrozenAddressList {
  /** Deposit addresses that received confirmed funds since their last sweep, a page of at most
   * `limit` after `after`, and where the next page starts (null at the end). */
  dueAddresses(limit: number, after?: string): Promise<{ due: SweepCandidate[]; next: string | null }>;
  /** The sweep in progress for an address, if any. */
  openSweep(address: string): Promise<Sweep | null>;
  /** The address's finished sweeps, newest first, at most `limit`. */
  finishedSweeps(address: string, limit: number): Promise<Sweep[]>;
  /** Conditional on the sweep being as `before` says (null: none open for the address). A
   * transaction id `after` carries that `before` did not is claimed for this sweep's step in the
   * same write: TransactionIdTaken when another payout holds it (functions/withdrawals/payouts.ts). */
  saveSweep(before: Sweep | null, after: Sweep, tokenFee?: LedgerEntry | null): Promise<boolean>;
  /** What the address's counts allow a sweep to take (sweep-amount.ts), read consistently. */
  sweepCountsAt(address: string): Promise<SweepCounts>;
  /**
   * The address has nothing (more) to sweep until a new deposit is confirmed to it. `remaining`
   * is what it still holds, below the minimum: companies were credited with it, so it stays listed
   * for reconciliation (functions/ledger/reconciliation.ts) until a later sweep takes it along.
   */
  clearDue(address: string, remaining: bigint): Promise<void>;
}

export interface SweepBuilder extends TransferBuilder {
  /** `amount` of the network's fee asset, in its minor unit (Network.feeAsset). */
  feeTransfer(input: { from: string; to: string; amount: bigint }): Promise<UnsignedTransfer>;
}

export interface DepositKeySigner {
  /** Signs as the deposit address at index `index` of the deposit account (m/44'/<coin>'/0'/0/index). */
  signFor(index: number, txId: Uint8Array): Promise<Uint8Array>;
  /** The address the key at `index` signs for. */
  addressAt(index: number): Promise<string>;
}

export interface SweepDeps {
  chain: ChainReader;
  /** The address's USDT on chain, in minor units. */
  usdtBalanceOf: (address: string) => Promise<bigint>;
  /** The address's fee asset on chain, in its minor unit: a top-up from an earlier, failed attempt may still be there. */
  feeBalanceOf: (address: string) => Promise<bigint>;
  broadcaster: Broadcaster;
  builder: SweepBuilder;
  hotWallet: TransactionSigner;
  depositKeys: DepositKeySigner;
  store: SweepStore;
  claims: TransactionClaims;
  /** `feeTopUp`: the fee asset a deposit address should hold for its sweep, in its minor unit; a top-up sends what it lacks of it. */
  /** `duePerRun`: the addresses a run works on (DUE_PER_RUN unless a test makes it small). */
  settings: { minimumSweep: bigint; feeTopUp: bigint; duePerRun?: number };
  /** The issuer's freeze list: a frozen address is set aside, never topped up (frozen-addresses.ts). */
  frozenAmong?: FrozenAmong;
  /** The payouts the top-ups leave the hot wallet's TRX for (payoutReserveSun); absent, none. */
  payouts?: PayoutsWaiting;
  now?: () => Date;
  /** The run's logger; stderr JSON when absent. */
  log?: Log;
}

export interface SweepResult {
  toppedUp: number;
  swept: number;
  /** Sweeps whose USDT reached the hot wallet this run (their TRX reclaim may still be under way). */
  done: number;
  failed: number;
  /** Due addresses left alone this run: their last sweeps failed in a row (sweepBackoffUntil). */
  held: number;
  /** Due addresses the issuer has frozen, set aside this run. */
  frozen: number;
}

/**
 * What a reclaim leaves at the address for its own fee, in sun. A TRX transfer takes some 270
 * bandwidth points; the address's free 600 a day are mostly spent by its USDT transfer that day,
 * and TRON then burns 1,000 sun a point from the sender: 0.27 TRX. Its recipient, the hot wallet,
 * is an account already, so no activation fee. The node refuses a transfer the sender cannot pay
 * the fee for (nothing moves, and the reclaim's step expires), so a little more is left.
 */
export const RECLAIM_FEE_ALLOWANCE_SUN = 300_000n;
/** Less than this (sun) beyond the allowance stays where it is: 1 TRX, worth a transaction's fee several times over. */
export const RECLAIM_MINIMUM_SUN = 1_000_000n;
/**
 * Reclaims signed for one sweep before its TRX is left where it is. One that does not land (a lost
 * broadcast, a crash before it, a balance read from a node behind the sweep's block, so an amount
 * the node refuses) is signed again from a fresh read; the sweep stays open meanwhile, so the bound
 * keeps an address paid again from waiting behind reclaims that never land.
 */
export const RECLAIM_ATTEMPTS = 3;
/** What a top-up itself may burn of the hot wallet's TRX beyond its amount: 1.1 TRX where it
 * creates the deposit address's account (its first), some 0.27 TRX of bandwidth otherwise. */
const TOP_UP_FEE_ALLOWANCE_SUN = 1_100_000n;

/** TRON's payouts as the top-ups read them, to leave the TRX they may burn (payoutReserveSun). */
export interface PayoutsWaiting {
  /** TRON's withdrawals, the sender's store. */
  store: WithdrawalSendingStore;
  /** WITHDRAWAL_FEE_LIMIT_SUN: the most TRX one payout may burn. */
  feeLimitSun: bigint;
  /** The hot wallet's USDT as the sender reads it (its float); null where the chain does not limit it. */
  hotWalletUsdt: () => Promise<bigint | null>;
}

/**
 * The TRX (sun) the top-ups leave in the hot wallet for payouts: a fee limit for each one `processing`
 * (signed and not final: its energy may not be burnt yet) and for each `pending` one the hot wallet's
 * USDT, less what the processing ones move, covers, oldest first as the sender takes them (one it
 * cannot cover waits for the float, which only the sweeps bring). Read only as far as `balanceSun`
 * could cover: past that the reserve is the whole balance whatever the count.
 */
export async function payoutReserveSun(payouts: PayoutsWaiting, balanceSun: bigint): Promise<bigint> {
  const enough = Number(balanceSun / payouts.feeLimitSun) + 1;
  const atMost = Math.min(enough, PAYOUTS_COUNTED_AT_MOST);
  const reserve = (count: number) => BigInt(count) * payouts.feeLimitSun;
  let counted = 0;
  let outgoing = 0n;
  for await (const withdrawal of withdrawalsIn(payouts, 'processing', null)) {
    outgoing += withdrawal.amount;
    if (++counted >= atMost) return reserve(counted);
  }
  const held = await payouts.hotWalletUsdt();
  let float = held === null ? null : held - outgoing;
  let read = 0;
  for await (const withdrawal of withdrawalsIn(payouts, 'pending', null)) {
    if (++read > PAYOUTS_COUNTED_AT_MOST) break;
    if (float !== null) {
      if (withdrawal.amount > float) continue;
      float -= withdrawal.amount;
    }
    if (++counted >= atMost) break;
  }
  return reserve(counted);
}

/** Failed sweeps of one address in a row before the next attempt waits. */
export const FAILURES_BEFORE_BACKOFF = 3;
const FIRST_BACKOFF_MS = 60 * 60_000;
const MAX_BACKOFF_MS = 24 * 60 * 60_000;

/**
 * When an address whose last sweeps failed may be tried again, or null to try now. A sweep that
 * fails on chain has burned its fee, and the address stays due: retried on every run (each
 * minute), a sweep that cannot succeed would drain the hot wallet's fee asset in top-ups. After
 * FAILURES_BEFORE_BACKOFF failures in a row it waits an hour, doubling with each further failure
 * up to a day, and the job reports the address as held (alarmed: someone should look).
 */
export function sweepBackoffUntil(finishedNewestFirst: Sweep[]): Date | null {
  const firstSuccess = finishedNewestFirst.findIndex((sweep) => sweep.status !== 'failed');
  const failuresInARow = firstSuccess === -1 ? finishedNewestFirst.length : firstSuccess;
  if (failuresInARow < FAILURES_BEFORE_BACKOFF) return null;
  const wait = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failuresInARow - FAILURES_BEFORE_BACKOFF));
  return new Date(Date.parse(finishedNewestFirst[0]!.updatedAt) + wait);
}

/** Addresses a run works on (an open sweep's step, or a new sweep started), read a page of as many at a time. */
export const DUE_PER_RUN = 50;

export async function sweepDepositAddresses(deps: SweepDeps): Promise<SweepResult> {
  const now = deps.now ?? (() => new Date());
  const result: SweepResult = { toppedUp: 0, swept: 0, done: 0, failed: 0, held: 0, frozen: 0 };
  const hotWallet = await deps.hotWallet.address();
  const final = await deps.chain.finalBlock();
  /** The hot wallet's TRX the top-ups may spend (what payouts need kept back), read at the run's first
   * top-up and counted down by each. */
  let hotWalletTrx: bigint | undefined;
  let keptForPayouts = 0n;
  // At most DUE_PER_RUN addresses worked a run, read past those that wait (workableDue).
  const perRun = deps.settings.duePerRun ?? DUE_PER_RUN;
  let worked = 0;
  let trxShort = false;
  for await (const { candidate, open } of workableDue(deps, perRun, result, now, () => worked < perRun && !trxShort)) {
    if (worked >= perRun) break;
    worked++;
    const at = now().toISOString();
    if (!open) {
      const due = await dueSweep(deps, candidate.address);
      if (due === null) continue;
      // A sweep key that is not the deposit xpub's (SWEEP_ACCOUNT_XPRV_SECRET set wrong) signs for
      // other addresses: each top-up would strand its TRX at an address whose sweep is refused.
      if ((await deps.depositKeys.addressAt(candidate.addressIndex)) !== candidate.address) {
        (deps.log ?? stderrLog).error('the sweep key does not give this deposit address at its index: not topped up, not swept', { address: candidate.address, addressIndex: candidate.addressIndex });
        result.held++;
        continue;
      }
      const trxThere = await deps.feeBalanceOf(candidate.address);
      if (trxThere >= deps.settings.feeTopUp) {
        // The top-up of an earlier attempt is still there (its sweep was lost or expired): no new top-up.
        const transfer = await deps.builder.usdtTransfer({ from: candidate.address, to: hotWallet, amount: due.amount });
        const sweeping: Sweep = { ...newSweep(candidate, due, at), status: 'sweeping', sweepTxHash: transfer.txId, stepExpiresAt: transfer.expiresAt };
        if (!(await saved(deps, null, sweeping))) continue;
        if (await broadcastStep(deps, sweeping, transfer, await deps.depositKeys.signFor(candidate.addressIndex, Buffer.from(transfer.txId, 'hex')))) result.swept++;
        continue;
      }
      // A hot wallet short of the top-up and its fee would have it refused or fail: the address
      // waits, as held, with no failed sweep against it (three in a row back it off for hours),
      // until TRX arrives. Only what the address lacks: TRX an earlier attempt or reclaim left there counts.
      const topUpSun = deps.settings.feeTopUp - trxThere;
      if (hotWalletTrx === undefined) {
        const balance = await deps.feeBalanceOf(hotWallet);
        keptForPayouts = deps.payouts ? await payoutReserveSun(deps.payouts, balance) : 0n;
        hotWalletTrx = balance - keptForPayouts;
      }
      if (hotWalletTrx < topUpSun + TOP_UP_FEE_ALLOWANCE_SUN) {
        result.held++;
        // No top-up goes out this run: reading further addresses would only hold them too.
        trxShort = true;
        if (keptForPayouts > 0n) (deps.log ?? stderrLog).warn("no top-up this run: the hot wallet's TRX is kept for payouts", { network: 'tron', keptForPayoutsSun: String(keptForPayouts) });
        continue;
      }
      hotWalletTrx -= topUpSun + TOP_UP_FEE_ALLOWANCE_SUN;
      const topUp = await deps.builder.feeTransfer({ from: hotWallet, to: candidate.address, amount: topUpSun });
      const sweep: Sweep = { ...newSweep(candidate, due, at), topUpTxHash: topUp.txId, stepExpiresAt: topUp.expiresAt };
      // Stored before it is broadcast, like a withdrawal: a crash cannot send it twice.
      if (!(await saved(deps, null, sweep))) continue;
      if (await broadcastStep(deps, sweep, topUp, await deps.hotWallet.signTransactionId(Buffer.from(topUp.txId, 'hex')))) result.toppedUp++;
      continue;
    }
    const step = stepOf(open);
    const { settled } = await sentTransactionOutcome(deps.chain, stepTxHash(open, step)!, open.stepExpiresAt, final);
    if (!settled) continue; // not final yet
    if (step === 'reclaim') {
      // The USDT is in the hot wallet already (the sweep counted done then): what is left is the TRX.
      if (settled !== 'expired' && settled.result === 'SUCCESS') {
        await finished(deps, open, { ...open, status: 'done', updatedAt: at });
        continue;
      }
      const outcome = settled === 'expired' ? 'TRANSACTION_EXPIRED' : settled.result;
      const fields = { address: open.address, txId: open.reclaimTxHash, outcome, attempts: open.reclaimAttempts };
      if (open.reclaimAttempts < RECLAIM_ATTEMPTS && (await reclaimed(deps, open, hotWallet, at))) {
        (deps.log ?? stderrLog).warn('the TRX reclaim of a sweep did not land; signed again', fields);
        continue;
      }
      // Left at the address, where a next sweep of it would use it; the finished sweep says so (reclaimedSun null).
      (deps.log ?? stderrLog).error('the TRX left after a sweep could not be sent back to the hot wallet; it stays at the deposit address', fields);
      await finished(deps, open, { ...open, status: 'done', reclaimedSun: null, updatedAt: at });
      continue;
    }
    if (settled === 'expired' || settled.result !== 'SUCCESS') {
      // Lost (a failed or dropped broadcast) or failed on chain: the sweep ends failed and the
      // address, still due, gets a fresh sweep on a later run.
      const reason = settled === 'expired' ? 'TRANSACTION_EXPIRED' : settled.result;
      if (await deps.store.saveSweep(open, { ...open, status: 'failed', failureReason: step === 'top-up' ? `top-up ${reason}` : reason, updatedAt: at })) result.failed++;
      continue;
    }
    if (step === 'top-up') {
      const transfer = await deps.builder.usdtTransfer({ from: candidate.address, to: hotWallet, amount: open.amount });
      const sweeping: Sweep = { ...open, status: 'sweeping', sweepTxHash: transfer.txId, stepExpiresAt: transfer.expiresAt, updatedAt: at };
      if (!(await saved(deps, open, sweeping))) continue;
      if (await broadcastStep(deps, sweeping, transfer, await deps.depositKeys.signFor(open.addressIndex, Buffer.from(transfer.txId, 'hex')))) result.swept++;
      continue;
    }
    // The hot wallet received the amount less any fee the token's issuer took: Cambio's cost, booked with the sweep.
    const received = receivedBy(settled, hotWallet);
    const fee = received === null ? null : tokenFeeEntry('tron', open.sweepTxHash!, open.amount - received, now());
    if (await reclaimed(deps, open, hotWallet, at, fee)) {
      result.done++;
    } else if (await finished(deps, open, { ...open, status: 'done', updatedAt: at }, fee)) {
      result.done++;
    }
  }
  return result;
}

/**
 * The due addresses a run may work on, each with the sweep open at it, page after page while `more()`
 * says so (../../deposits/due-list.ts): those backing off after failed sweeps are counted held and
 * passed over, from the table alone, and those the issuer froze are set aside, its freeze list read
 * on the chain for the rest only. So a front of the list that cannot move never keeps the addresses
 * behind it from being swept.
 */
async function* workableDue(deps: SweepDeps, perRun: number, result: SweepResult, now: () => Date, more: () => boolean): AsyncGenerator<{ candidate: SweepCandidate; open: Sweep | null }> {
  for await (const due of duePages(deps.store, perRun, more)) {
    const active: { candidate: SweepCandidate; open: Sweep | null }[] = [];
    for (const candidate of due) {
      const open = await deps.store.openSweep(candidate.address);
      const retryAt = open ? null : sweepBackoffUntil(await deps.store.finishedSweeps(candidate.address, 10));
      if (retryAt && now() < retryAt) result.held++;
      else active.push({ candidate, open });
    }
    const frozen = deps.frozenAmong ? await setAsideFrozen(deps.store, deps.frozenAmong, active.map(({ candidate }) => candidate.address), usdtAtEach(deps.usdtBalanceOf)) : new Set<string>();
    result.frozen += frozen.size;
    for (const workable of active) if (!frozen.has(workable.candidate.address)) yield workable;
  }
}

/**
 * Saves a sweep done, then takes its address off the due list in the same run, as the next run
 * would (what it holds read now: below the minimum, it is cleared; a payment confirmed meanwhile
 * keeps it due). An address holds one of the run's due places from its top-up until it is
 * cleared, so a run saved here is a sweep more a minute (docs/capacity.md, TRON sweeps).
 */
async function finished(deps: SweepDeps, before: Sweep, done: Sweep, tokenFee?: LedgerEntry | null): Promise<boolean> {
  if (!(await deps.store.saveSweep(before, done, tokenFee))) return false;
  await dueSweep(deps, done.address);
  return true;
}

/**
 * What the address's next sweep moves, read now: the USDT it holds, no more than its counts allow
 * (sweep-amount.ts: a payment the scanner has not recorded yet stays). At or above the sweep
 * minimum, that amount; below it, null, and the address is cleared off the due list, still listed
 * for what it holds: a payment recorded there later marks it due again.
 */
async function dueSweep(deps: SweepDeps, address: string): Promise<SweepAmount | null> {
  const [counts, balance] = await Promise.all([deps.store.sweepCountsAt(address), deps.usdtBalanceOf(address)]);
  const due = sweepAmount(balance, counts);
  if (due.amount >= deps.settings.minimumSweep) return due;
  if (emptyTooSoon(balance, counts)) {
    (deps.log ?? stderrLog).warn(READ_EMPTY_TOO_SOON, { address, recorded: String(counts.sweepable) });
    return null;
  }
  if (balance >= deps.settings.minimumSweep) {
    (deps.log ?? stderrLog).warn('deposit address holds USDT no recorded payment explains: left there until the scanner records it', { address, usdt: String(balance), sweepable: String(due.amount) });
  }
  await deps.store.clearDue(address, balance);
  return null;
}

/**
 * Sends what TRX the sweep's fee left at the address (read now) back to the hot wallet, less the
 * reclaim's own fee: stored `reclaiming` (with the sweep's `tokenFee`, on its first), then
 * broadcast. False, with nothing written, when that is under RECLAIM_MINIMUM_SUN, or when the
 * sweep changed meanwhile.
 */
async function reclaimed(deps: SweepDeps, sweep: Sweep, hotWallet: string, at: string, tokenFee?: LedgerEntry | null): Promise<boolean> {
  const amount = (await deps.feeBalanceOf(sweep.address)) - RECLAIM_FEE_ALLOWANCE_SUN;
  if (amount < RECLAIM_MINIMUM_SUN) return false;
  const transfer = await deps.builder.feeTransfer({ from: sweep.address, to: hotWallet, amount });
  const reclaiming: Sweep = { ...sweep, status: 'reclaiming', reclaimTxHash: transfer.txId, reclaimedSun: amount, reclaimAttempts: sweep.reclaimAttempts + 1, stepExpiresAt: transfer.expiresAt, updatedAt: at };
  if (!(await saved(deps, sweep, reclaiming, tokenFee))) return false;
  await broadcastStep(deps, reclaiming, transfer, await deps.depositKeys.signFor(sweep.addressIndex, Buffer.from(transfer.txId, 'hex')));
  return true;
}

function stepOf(sweep: Sweep): SweepStep {
  return sweep.status === 'topping_up' ? 'top-up' : sweep.status === 'reclaiming' ? 'reclaim' : 'sweep';
}

/** The transaction id of a sweep's step, once signed. */
export function stepTxHash(sweep: Sweep, step: SweepStep): string | null {
  return step === 'top-up' ? sweep.topUpTxHash : step === 'reclaim' ? sweep.reclaimTxHash : sweep.sweepTxHash;
}

function newSweep(candidate: SweepCandidate, due: SweepAmount, at: string): Sweep {
  return {
    ...candidate,
    amount: due.amount,
    takenOffCounts: due.takenOffCounts,
    status: 'topping_up',
    topUpTxHash: null,
    sweepTxHash: null,
    reclaimTxHash: null,
    reclaimedSun: null,
    reclaimAttempts: 0,
    stepExpiresAt: null,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Saves a sweep that carries a newly signed transaction. An id another payout holds leaves the
 * sweep as it was: the next run signs it afresh, with another timestamp, so another id. */
async function saved(deps: SweepDeps, before: Sweep | null, after: Sweep, tokenFee?: LedgerEntry | null): Promise<boolean> {
  try {
    return await deps.store.saveSweep(before, after, tokenFee);
  } catch (error) {
    if (!(error instanceof TransactionIdTaken)) throw error;
    (deps.log ?? stderrLog).warn('sweep transaction id already claimed by another payout; signing afresh next run', { address: after.address, txId: error.txId });
    return false;
  }
}

/** Broadcasts a stored step. A failure is logged, not thrown: the other addresses still get their
 * turn, and the stored step, never mined, expires and fails the sweep so a later run starts over. */
async function broadcastStep(deps: SweepDeps, sweep: Sweep, unsigned: UnsignedTransfer, signature: Uint8Array): Promise<boolean> {
  try {
    const step = stepOf(sweep);
    await broadcastOwned(deps.broadcaster, deps.claims, unsigned.txId, deps.builder.signed(unsigned, signature), sweepOwner(sweep.address, sweep.createdAt, step));
    return true;
  } catch (error) {
    const then = stepOf(sweep) === 'reclaim' ? 'the reclaim will expire and be signed again' : 'the step will expire and the sweep start over';
    (deps.log ?? stderrLog).error(`sweep broadcast failed; ${then}`, { address: sweep.address, status: sweep.status, error: String(error) });
    return false;
  }
}
