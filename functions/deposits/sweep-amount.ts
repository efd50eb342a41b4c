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
}

/** What a sweep takes off the address's counts once its transfer has landed. */
export interface CountsTaken {
  sweepable: bigint;
  credited: bigint;
}

/** The amount to sweep from an address holding `balance`, and what it takes off its counts (null
 * where they were never kept). The credit still there after it is at most what stays recorded. */
export function sweepAmount(balance: bigint, counts: SweepCounts): { amount: bigint; takenOffCounts: CountsTaken | null } {
  if (counts.sweepable === null) return { amount: balance, takenOffCounts: null };
  const recorded = counts.sweepable > 0n ? counts.sweepable : 0n;
  const amount = balance < recorded ? balance : recorded;
  const left = recorded - amount;
  return { amount, takenOffCounts: { sweepable: amount, credited: counts.credited > left ? counts.credited - left : 0n } };
}
