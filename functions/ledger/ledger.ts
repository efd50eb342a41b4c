import type { Currency } from '../shared/money.ts';
import { newId } from '../shared/ids.ts';
import { DEFAULT_NETWORK, type NetworkName } from '../networks/names.ts';

/**
 * A double-entry ledger in integer minor units (formance-style postings: money moves from a
 * source account to a destination account). A company's balance buckets are accounts; the
 * outside world, fees and the conversion desk are accounts too, so every posting balances and
 * finance can sum any account from an export. Entries are append-only: a correction is a new
 * entry, never an edit.
 */
/** `held`: deposits recorded on chain that cannot be credited (a frozen deposit address, a
 * sanctioned payer: functions/deposits/deposits.ts HoldReason). Not spendable, not in the API's
 * balance; the dashboard shows it apart. */
export type Bucket = 'available' | 'pending' | 'locked' | 'held';

export const BUCKETS: readonly Bucket[] = ['available', 'pending', 'locked', 'held'];

/** Accounts that are not a company's: where money comes from and goes to. */
export const EXTERNAL_ACCOUNTS = {
  /** Network fees charged on withdrawals. */
  networkFees: 'revenue:network_fees',
  /** The desk on the other side of every USDT→BRL conversion. */
  conversionDesk: 'treasury:conversion_desk',
  /** Cambio's own USDT put on a hot wallet to pay withdrawals from (functions/ledger/floats.ts). */
  hotWalletFloat: 'treasury:hot_wallet_float',
  /** What the token's issuer took from Cambio's own transfers (a sweep's fee: tokenFeeEntry). */
  tokenFees: 'expense:token_transfer_fees',
} as const;

/**
 * The `companyId` of entries in Cambio's own books, which move no company's money (a hot wallet's
 * float). Company ids are `cmp_…`, so it names no company, and no company's ledger lists them.
 */
export const CAMBIO_BOOKS = 'cambio';

/**
 * A transfer fee the token's issuer charged on one of Cambio's own transfers (a sweep: the hot
 * wallet received the amount less the fee; ../shared/networks.md, "Transfer fee"). Cambio bears it,
 * in its own books: the fee leaves on the network, so reconcile balances to the unit with a fee on.
 * Null for no fee. A payout's fee needs no entry: the payee bears it (the hot wallet sent the whole
 * amount, which the withdrawal's entry already books), and `deliveredAmount` shows it.
 */
export function tokenFeeEntry(network: NetworkName, txHash: string, fee: bigint, now: Date): LedgerEntry | null {
  if (fee <= 0n) return null;
  return ledgerEntry(CAMBIO_BOOKS, `token_fee:${network}:${txHash}`, [{ source: EXTERNAL_ACCOUNTS.tokenFees, destination: networkAccount(network), currency: 'USDT', amount: fee }], now, network);
}

/** USDT received on or sent to a network: `external:tron`. */
export function networkAccount(network: NetworkName): string {
  return `external:${network}`;
}

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
  /** The network a deposit's or withdrawal's entry moved USDT on, for finance's files (networkOf);
   * absent on other entries (conversions). Entries written before it was stored have none. */
  network?: NetworkName;
}

export function ledgerEntry(companyId: string, reference: string, postings: Posting[], now: Date, network?: NetworkName): LedgerEntry {
  for (const posting of postings) {
    if (posting.amount <= 0n) throw new Error(`Posting amounts are positive; got ${posting.amount} in ${reference}`);
    if (posting.source === posting.destination) throw new Error(`Posting moves nothing: ${posting.source} in ${reference}`);
  }
  return { id: newId('ledgerEntry', now.getTime()), companyId, reference, postings, createdAt: now.toISOString(), ...(network && { network }) };
}

/**
 * The network of an entry's deposit or withdrawal, as the ledger CSV and the statement show it; an
 * empty string for an entry of neither (a conversion). An entry written before entries stored their
 * network is the first network's (DEFAULT_NETWORK, TRON): it was the one network deposits and
 * withdrawals moved on until then.
 */
export function networkOf(entry: LedgerEntry): NetworkName | '' {
  if (entry.network) return entry.network;
  return /^(deposit|withdrawal):/.test(entry.reference) ? DEFAULT_NETWORK : '';
}

/**
 * The deposit, withdrawal or conversion an entry is of (`withdrawal:wdr_…`): the first two parts of
 * its reference. A balance is spread over shards by subject (adapters/dynamo/balance-shards.ts), so
 * what one entry of a withdrawal locks, a later one of the same withdrawal finds on the same shard.
 */
export function subjectOf(entry: LedgerEntry): string {
  return entry.reference.split(':').slice(0, 2).join(':');
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
    const deltas = changes.get(posting.currency) ?? { available: 0n, pending: 0n, locked: 0n, held: 0n };
    const from = bucketOf(posting.source);
    const to = bucketOf(posting.destination);
    if (from) deltas[from] -= posting.amount;
    if (to) deltas[to] += posting.amount;
    changes.set(posting.currency, deltas);
  }
  return changes;
}

/**
 * Each account's balance per currency: postings into it minus postings out of it, fed one entry
 * at a time, so a reader of the daily export or of a Scan never holds every entry at once.
 */
export class AccountBalances {
  private readonly sums = new Map<string, bigint>();

  add(entry: LedgerEntry): this {
    for (const posting of entry.postings) {
      this.move(posting.source, posting.currency, -posting.amount);
      this.move(posting.destination, posting.currency, posting.amount);
    }
    return this;
  }

  of(account: string, currency: Currency): bigint {
    return this.sums.get(`${account}|${currency}`) ?? 0n;
  }

  /** Every account that a posting touched, with its balance in each currency. */
  *all(): Generator<{ account: string; currency: Currency; balance: bigint }> {
    for (const [key, balance] of this.sums) {
      const at = key.lastIndexOf('|');
      yield { account: key.slice(0, at), currency: key.slice(at + 1) as Currency, balance };
    }
  }

  private move(account: string, currency: Currency, amount: bigint): void {
    const key = `${account}|${currency}`;
    this.sums.set(key, (this.sums.get(key) ?? 0n) + amount);
  }
}

/** Sum of postings into minus out of an account: what the account's balance must equal. */
export function accountBalance(entries: readonly LedgerEntry[], account: string, currency: Currency): bigint {
  const balances = new AccountBalances();
  for (const entry of entries) balances.add(entry);
  return balances.of(account, currency);
}
