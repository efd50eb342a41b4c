import type { Log } from '../shared/log.ts';

/**
 * How much a sweep may take from a deposit address. Its USDT on chain is not all the sweeper's to
 * move: a payment can land at an address already due a minute before the scanner records it, and
 * until it is recorded and screened it may be a sanctioned payer's, whose money stays where it
 * landed (functions/deposits/deposit-confirmation.ts). So a sweep moves what the address holds, no
 * more than the USDT recorded there and cleared for sweeping (the address's `sweepable` count,
 * functions/adapters/dynamo/items/deposit-address.ts); the rest waits for the scanner.
 */

/** A deposit address's counts as a sweep reads them. */
export interface SweepCounts {
  /** USDT recorded there that may be swept; null where it was never counted (an address made before
   * the count: the whole balance may be swept, as it always was). */
  sweepable: bigint | null;
  /** The credit counted as still there, which a freeze takes back (freezeCredit); 0 where none. */
  credited: bigint;
  /** What the payments there carried below 1e-6 USDT, in the token's base units (BSC's 18 decimals:
   * functions/deposits/dust.ts), recorded once final; never credited, so never in `sweepable`. */
  dust: bigint;
}

/** What a sweep takes off the address's counts once its transfer has landed. */
export interface CountsTaken {
  sweepable: bigint;
  credited: bigint;
}

/** A sweep's amount, and what it takes off the address's counts (null where they were never kept). */
export interface SweepAmount {
  amount: bigint;
  takenOffCounts: CountsTaken | null;
}

/** The amount to sweep from an address holding `balance`, and what it takes off its counts. The
 * credit still there after it is at most what stays recorded. */
export function sweepAmount(balance: bigint, counts: SweepCounts): SweepAmount {
  if (counts.sweepable === null) return { amount: balance, takenOffCounts: null };
  const recorded = counts.sweepable > 0n ? counts.sweepable : 0n;
  const amount = balance < recorded ? balance : recorded;
  const left = recorded - amount;
  return { amount, takenOffCounts: { sweepable: amount, credited: counts.credited > left ? counts.credited - left : 0n } };
}

/** An address with no counts read: swept whole, as one made before they were kept. */
export const NO_COUNTS: SweepCounts = { sweepable: null, credited: 0n, dust: 0n };

/**
 * USDT (6 decimals) an address holds beyond what was recorded there: a payment the scanner has not
 * recorded (nor screened) yet, which a sweep that moves a whole balance (an EVM flush, a Solana
 * sweep that closes the account) must wait for. What the recorded dust there rounds the balance up
 * by is allowed for (`unit`: the token's base units in 1e-6 USDT, 1 where it has 6 decimals); dust
 * not yet recorded is not, so the address waits for it too. 0 where the counts were never kept.
 */
export function unrecordedAt(balance: bigint, counts: SweepCounts, unit: bigint): bigint {
  if (counts.sweepable === null) return 0n;
  const recorded = (counts.sweepable > 0n ? counts.sweepable : 0n) + (counts.dust + unit - 1n) / unit;
  return balance > recorded ? balance - recorded : 0n;
}

/**
 * Whether an address read as empty still has USDT recorded there: a node behind the chain (the
 * sweeps that emptied an address take their amount off its counts before it is read again). Cleared
 * then, its counts would be set to nothing and its credited USDT read later as unrecorded, never to
 * be swept: it stays due, and is read again next run.
 */
export const emptyTooSoon = (balance: bigint, counts: SweepCounts): boolean => balance === 0n && counts.sweepable !== null && counts.sweepable > 0n;

/**
 * Whether a sweep that moves an address's whole balance (an EVM flush, a Solana sweep that closes
 * the account) may take it now, and what it then takes off the address's counts. It waits, logged,
 * while the address holds USDT not recorded there (`unrecorded`: unrecordedAt) or reads empty while
 * USDT is recorded there (`readEmpty`: emptyTooSoon); it stays due either way. `fields`: the log
 * lines' (the network, the address).
 */
export function wholeSweepOf(balance: bigint, counts: SweepCounts, unit: bigint, log: Log, fields: Record<string, unknown>): { waits: 'unrecorded' | 'readEmpty' } | { takenOffCounts: CountsTaken | null } {
  const unrecorded = unrecordedAt(balance, counts, unit);
  if (unrecorded > 0n) {
    log.warn('deposit address holds USDT no recorded payment explains: not swept until the scanner records it', { ...fields, usdt: String(balance), unrecorded: String(unrecorded) });
    return { waits: 'unrecorded' };
  }
  if (emptyTooSoon(balance, counts)) {
    log.warn(READ_EMPTY_TOO_SOON, { ...fields, recorded: String(counts.sweepable) });
    return { waits: 'readEmpty' };
  }
  return { takenOffCounts: sweepAmount(balance, counts).takenOffCounts };
}

/** What every sweeper logs of an address emptyTooSoon finds. */
export const READ_EMPTY_TOO_SOON = 'deposit address read empty while USDT is recorded there: a node behind; read again next run';
