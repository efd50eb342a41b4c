import type { Currency } from './money.ts';
import { newId } from './ids.ts';

/**
 * A double-entry ledger in integer minor units (formance-style postings: money moves from a
 * source account to a destination account). A company's balance buckets are accounts; the
 * outside world, fees and the conversion desk are accounts too, so every posting balances and
 * finance can sum any account from an export. Entries are append-only: a correction is a new
 * entry, never an edit.
 */
export type Bucket = 'available' | 'pending' | 'locked';

export const BUCKETS: readonly Bucket[] = ['available', 'pending', 'locked'];

/** Accounts that are not a company's: where money comes from and goes to. */
export const EXTERNAL_ACCOUNTS = {
  /** USDT received on or sent to the TRON network. */
  tronNetwork: 'external:tron',
  /** Network fees charged on withdrawals. */
  networkFees: 'revenue:network_fees',
  /** The desk on the other side of every USDT→BRL conversion. */
  conversionDesk: 'treasury:conversion_desk',
} as const;

export function companyAccount(companyId: string, bucket: Bucket): string {
  return `company:${companyId}:${bucket}`;
}

export interface Posting {
  source: string;
  destination: string;
  currency: Currency;
  /** Minor units, always positive. */
  amount: bigint;
}

export interface LedgerEntry {
  id: string;
  companyId: string;
  /** The business event this entry records, e.g. `withdrawal:wdr_…:hold`; unique per entry. */
  reference: string;
  postings: Posting[];
  createdAt: string;
}

export function ledgerEntry(companyId: string, reference: string, postings: Posting[], now: Date): LedgerEntry {
  for (const posting of postings) {
    if (posting.amount <= 0n) throw new Error(`Posting amounts are positive; got ${posting.amount} in ${reference}`);
    if (posting.source === posting.destination) throw new Error(`Posting moves nothing: ${posting.source} in ${reference}`);
  }
  return { id: newId('ledgerEntry', now.getTime()), companyId, reference, postings, createdAt: now.toISOString() };
}

export type BucketDeltas = Record<Bucket, bigint>;

/**
 * How an entry changes the company's buckets, per currency: what the balance items must be
 * updated by in the same transaction. A negative delta is a debit the store guards with a
 * condition, so a bucket can never go below zero.
 */
export function balanceChanges(entry: LedgerEntry): Map<Currency, BucketDeltas> {
  const changes = new Map<Currency, BucketDeltas>();
  const bucketOf = (account: string): Bucket | null => {
    const prefix = `company:${entry.companyId}:`;
    return account.startsWith(prefix) ? (account.slice(prefix.length) as Bucket) : null;
  };
  for (const posting of entry.postings) {
    const deltas = changes.get(posting.currency) ?? { available: 0n, pending: 0n, locked: 0n };
    const from = bucketOf(posting.source);
    const to = bucketOf(posting.destination);
    if (from) deltas[from] -= posting.amount;
    if (to) deltas[to] += posting.amount;
    changes.set(posting.currency, deltas);
  }
  return changes;
}

/** Sum of postings into minus out of an account: what the account's balance must equal. */
export function accountBalance(entries: readonly LedgerEntry[], account: string, currency: Currency): bigint {
  let total = 0n;
  for (const entry of entries) {
    for (const posting of entry.postings) {
      if (posting.currency !== currency) continue;
      if (posting.destination === account) total += posting.amount;
      if (posting.source === account) total -= posting.amount;
    }
  }
  return total;
}
