import type { BalanceRow } from './company.ts';
import type { Caller } from '../people/caller.ts';
import { validationFailed } from '../shared/errors.ts';
import { ID_DAY_MESSAGE, isIdDay } from '../shared/ids.ts';
import { balanceChanges, BUCKETS, networkOf, type BucketDeltas, type LedgerEntry } from '../ledger/ledger.ts';
import { csvLine, isLedgerDay, type LedgerDay } from '../ledger/ledger-csv.ts';
import { CURRENCIES, formatAmount, type Currency } from '../shared/money.ts';

/**
 * A company's balance statement (Overview → `Download statement`): for finance, every change to its
 * balances between two UTC days, each ledger entry a line per currency it moved, with the change
 * to available, pending and locked and the balances after it, between an opening line at the first
 * day's start and a closing line at the last day's end. The lines add up: opening plus the changes
 * is the closing, and the closing of a period that ends today is the balance the API answers.
 */
export interface StatementStore {
  getBalances(companyId: string): Promise<BalanceRow[]>;
  /** The company's ledger entries created at or after `fromMs` (and before `toMs` when given), oldest first, a page at a time. */
  ledgerEntries(companyId: string, range: { fromMs: number; toMs?: number }): AsyncIterable<LedgerEntry[]>;
}

/** A statement covers at most this many days: one download, streamed, of a year of history. */
export const MAX_STATEMENT_DAYS = 366;
const DAY_MS = 86_400_000;
/** Reads of the balances and the entries since the period began that may disagree (an entry committed
 * between them) before the statement gives up; each retry reads afresh. */
const SNAPSHOT_ATTEMPTS = 5;
/** How far before the last entry read the short read starts: an entry's time is set before its
 * transaction commits, and one that took its time (a retried write, a slow Lambda) commits behind
 * entries already read. Far longer than a request to the table can take. */
const COMMIT_MARGIN_MS = 60_000;

/** `network` (of an entry's deposit or withdrawal, ledger.ts networkOf) comes after the columns
 * statements had before deposits took other networks, and `heldChange`/`held` (deposits that cannot
 * be credited) after it, so a reader by position keeps working. */
export const STATEMENT_COLUMNS = ['line', 'time', 'entryId', 'reference', 'currency', 'availableChange', 'pendingChange', 'lockedChange', 'available', 'pending', 'locked', 'network', 'heldChange', 'held'] as const;
type StatementLine = Record<(typeof STATEMENT_COLUMNS)[number], string>;

export interface StatementPeriod {
  from: LedgerDay;
  to: LedgerDay;
}

/** `from` and `to` as UTC days, `from` not after `to`, at most MAX_STATEMENT_DAYS, not in the future. */
export function statementPeriod(input: { from?: string; to?: string }, now = new Date()): StatementPeriod & { fromMs: number; toMs: number } {
  const problems: { path: string; message: string }[] = [];
  for (const field of ['from', 'to'] as const) {
    if (!isLedgerDay(input[field])) problems.push({ path: field, message: 'must be a UTC day, YYYY-MM-DD' });
    else if (!isIdDay(input[field])) problems.push({ path: field, message: ID_DAY_MESSAGE });
  }
  if (problems.length) throw validationFailed(problems);
  const fromMs = Date.parse(`${input.from}T00:00:00.000Z`);
  const toMs = Date.parse(`${input.to}T00:00:00.000Z`) + DAY_MS;
  if (toMs <= fromMs) throw validationFailed([{ path: 'to', message: 'must not be before from' }]);
  if (toMs - fromMs > MAX_STATEMENT_DAYS * DAY_MS) throw validationFailed([{ path: 'to', message: `must be at most ${MAX_STATEMENT_DAYS} days after from` }]);
  if (fromMs > now.getTime()) throw validationFailed([{ path: 'from', message: 'must not be in the future' }]);
  return { from: input.from!, to: input.to!, fromMs, toMs };
}

/** The statement's CSV, a piece per page of entries, so neither side holds the whole file. */
export async function* statementCsv(store: StatementStore, caller: Caller, input: { from?: string; to?: string }, now = new Date()): AsyncGenerator<string> {
  const period = statementPeriod(input, now);
  const companyId = caller.membership.companyId;
  // The header first: the opening balances need a full read of the entries since `from` (about
  // half the time of a long period), and the download starts meanwhile instead of waiting silent.
  yield STATEMENT_COLUMNS.join(',') + '\n';
  const running = await openingBalances(store, companyId, period.fromMs, now.getTime());
  const at = (ms: number) => new Date(Math.min(ms, now.getTime())).toISOString();
  yield CURRENCIES.map((currency) => csvLine(balanceLine('opening', at(period.fromMs), currency, running.get(currency)!), STATEMENT_COLUMNS)).join('');
  for await (const page of store.ledgerEntries(companyId, { fromMs: period.fromMs, toMs: period.toMs })) {
    const lines: string[] = [];
    for (const entry of page) {
      for (const [currency, deltas] of balanceChanges(entry)) {
        if (BUCKETS.every((bucket) => deltas[bucket] === 0n)) continue;
        const balance = running.get(currency)!;
        for (const bucket of BUCKETS) balance[bucket] += deltas[bucket];
        lines.push(csvLine(entryLine(entry, currency, deltas, balance), STATEMENT_COLUMNS));
      }
    }
    if (lines.length) yield lines.join('');
  }
  yield CURRENCIES.map((currency) => csvLine(balanceLine('closing', at(period.toMs), currency, running.get(currency)!), STATEMENT_COLUMNS)).join('');
}

/**
 * The balances at `fromMs`: today's, less every change since. The entries since `fromMs` are read
 * once, however long that takes (months of an active company's history); then the balances, the
 * entries since the last one read (less COMMIT_MARGIN_MS, for a write that took its time committing;
 * each entry counted once, by its id), and the balances again. An entry and its balance change
 * commit together, so when the two balance reads agree, no entry came between them and every entry
 * they include is counted: only that short read is tried again, never the long one, which an active
 * company's next payment would always outrun. One busy enough to commit within every short read is
 * opened from the entries before the period instead (entriesBefore).
 */
async function openingBalances(store: StatementStore, companyId: string, fromMs: number, nowMs: number): Promise<Map<Currency, BucketDeltas>> {
  const since = noBalances();
  const counted = new Set<string>();
  let lastMs = fromMs;
  const count = async (readFromMs: number) => {
    for await (const page of store.ledgerEntries(companyId, { fromMs: readFromMs })) {
      for (const entry of page) {
        if (counted.has(entry.id)) continue;
        counted.add(entry.id);
        lastMs = Math.max(lastMs, Date.parse(entry.createdAt));
        addChanges(since, entry);
      }
    }
  };
  await count(fromMs);
  for (let attempt = 1; attempt <= SNAPSHOT_ATTEMPTS; attempt++) {
    const before = await store.getBalances(companyId);
    await count(Math.max(fromMs, lastMs - COMMIT_MARGIN_MS));
    const after = await store.getBalances(companyId);
    if (!sameBalances(before, after)) continue;
    return new Map(
      CURRENCIES.map((currency) => {
        const now = bucketsOf(before.find((row) => row.currency === currency));
        const changed = since.get(currency)!;
        return [currency, { available: now.available - changed.available, pending: now.pending - changed.pending, locked: now.locked - changed.locked, held: now.held - changed.held }];
      }),
    );
  }
  // A company whose money moves every fraction of a second never holds still between two balance
  // reads. Its opening is then the sum of every entry before the period instead: each balance is the
  // sum of its entries, and entries dated before `fromMs` have all committed once COMMIT_MARGIN_MS
  // has passed. That reads the history before the period, not after it: longer for an old company,
  // so it is the second way, not the first.
  if (nowMs - fromMs >= COMMIT_MARGIN_MS) return entriesBefore(store, companyId, fromMs);
  throw new Error(`The balances of ${companyId} kept changing while its statement was read`);
}

/** The balances at `fromMs` as the sum of every entry before it. */
async function entriesBefore(store: StatementStore, companyId: string, fromMs: number): Promise<Map<Currency, BucketDeltas>> {
  const opening = noBalances();
  for await (const page of store.ledgerEntries(companyId, { fromMs: 0, toMs: fromMs })) for (const entry of page) addChanges(opening, entry);
  return opening;
}

/** Every currency's buckets at zero. */
const noBalances = (): Map<Currency, BucketDeltas> => new Map(CURRENCIES.map((currency) => [currency, bucketsOf(undefined)]));

/** What `entry` changes, added to `balances`. */
function addChanges(balances: Map<Currency, BucketDeltas>, entry: LedgerEntry): void {
  for (const [currency, deltas] of balanceChanges(entry)) for (const bucket of BUCKETS) balances.get(currency)![bucket] += deltas[bucket];
}

const bucketsOf = (row: BalanceRow | undefined): BucketDeltas => ({ available: row?.available ?? 0n, pending: row?.pending ?? 0n, locked: row?.locked ?? 0n, held: row?.held ?? 0n });

function sameBalances(a: BalanceRow[], b: BalanceRow[]): boolean {
  return a.length === b.length && a.every((row) => b.some((other) => other.currency === row.currency && BUCKETS.every((bucket) => other[bucket] === row[bucket]) && other.updatedAt === row.updatedAt));
}

function balanceLine(line: 'opening' | 'closing', time: string, currency: Currency, balance: BucketDeltas): StatementLine {
  return { line, time, entryId: '', reference: '', currency, availableChange: '', pendingChange: '', lockedChange: '', heldChange: '', ...amounts(currency, balance), network: '' };
}

function entryLine(entry: LedgerEntry, currency: Currency, deltas: BucketDeltas, balance: BucketDeltas): StatementLine {
  return {
    line: 'entry',
    time: entry.createdAt,
    entryId: entry.id,
    reference: entry.reference,
    currency,
    availableChange: formatAmount(deltas.available, currency),
    pendingChange: formatAmount(deltas.pending, currency),
    lockedChange: formatAmount(deltas.locked, currency),
    heldChange: formatAmount(deltas.held, currency),
    ...amounts(currency, balance),
    network: networkOf(entry),
  };
}

const amounts = (currency: Currency, balance: BucketDeltas) => ({
  available: formatAmount(balance.available, currency),
  pending: formatAmount(balance.pending, currency),
  locked: formatAmount(balance.locked, currency),
  held: formatAmount(balance.held, currency),
});
