import { networkOf, type LedgerEntry } from './ledger.ts';
import { formatAmount, type Currency } from '../shared/money.ts';

/**
 * Finance's CSV of ledger postings (docs/data-model.md, Reading the ledger): one row per posting,
 * amounts as decimal strings at the asset's scale. `npm run ledger:csv` (local) and the daily
 * ledger job (functions/handlers/jobs/ledger-day-csv.ts, `ledger/YYYY/MM/DD.csv` in S3) write the same
 * columns through this module, so a file from either reads the same. `network` is last: Athena reads
 * the columns by position (lib/finance-export.ts), and the files written before it had eight.
 */
export const POSTING_COLUMNS = ['entryId', 'createdAt', 'companyId', 'reference', 'source', 'destination', 'asset', 'amount', 'network'] as const;

export interface PostingRow {
  entryId: string;
  createdAt: string;
  companyId: string;
  reference: string;
  source: string;
  destination: string;
  asset: Currency;
  /** Decimal string at the asset's scale. */
  amount: string;
  /** The network of the entry's deposit or withdrawal (ledger.ts networkOf), empty for others. */
  network: string;
}

/** Each posting of the entry as a row, in the entry's order. */
export function postingRows(entry: LedgerEntry): PostingRow[] {
  return entry.postings.map((posting) => ({
    entryId: entry.id,
    createdAt: entry.createdAt,
    companyId: entry.companyId,
    reference: entry.reference,
    source: posting.source,
    destination: posting.destination,
    asset: posting.currency,
    amount: formatAmount(posting.amount, posting.currency),
    network: networkOf(entry),
  }));
}

/** Oldest first; ids are ULIDs, so equal times keep the order the entries were made in. */
export function byCreation(a: { createdAt: string; entryId: string }, b: { createdAt: string; entryId: string }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0;
}

/**
 * One CSV cell. A company's own reference could read as a spreadsheet formula: such text starts
 * with a quote (a negative number stays a number).
 */
export function csvCell(value: unknown): string {
  let text = String(value);
  if (/^[=+@\t\r]/.test(text) || (text.startsWith('-') && !/^-\d+(\.\d+)?$/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine<T extends object>(row: T, columns: readonly (keyof T & string)[]): string {
  return columns.map((column) => csvCell(row[column])).join(',') + '\n';
}

export function toCsv<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  return columns.join(',') + '\n' + rows.map((row) => csvLine(row, columns)).join('');
}

/** `2026-11-20`: a UTC calendar day, the unit of the daily ledger files. */
export type LedgerDay = string;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLedgerDay(value: unknown): value is LedgerDay {
  if (typeof value !== 'string' || !DAY_PATTERN.test(value)) return false;
  const start = new Date(`${value}T00:00:00.000Z`);
  // 2026-13-01 is no date at all; 2026-02-30 would roll over to March.
  return !Number.isNaN(start.getTime()) && start.toISOString().slice(0, 10) === value;
}

/** The UTC day of a stored `createdAt` (always `toISOString()`, so UTC and ending in Z). */
export const dayOf = (createdAt: string): LedgerDay => createdAt.slice(0, 10);

const dayStart = (day: LedgerDay) => Date.parse(`${day}T00:00:00.000Z`);

/** Where a day's file lives in the bucket; Athena's partition projection reads the same template. */
export const LEDGER_PREFIX = 'ledger';
export const ledgerDayKey = (day: LedgerDay): string => `${LEDGER_PREFIX}/${day.replace(/-/g, '/')}.csv`;

/** Whether an export taken at `exportTime` holds every entry of the day: the day had ended. */
export function dayEndedBy(day: LedgerDay, exportTime: Date): boolean {
  return dayStart(day) + DAY_MS <= exportTime.getTime();
}

/**
 * How far back a completed export fills in a missing file: a day whose own export failed gets its
 * file from the next export that completes, within a week (the alarm fires on the failed day).
 */
export const CATCH_UP_DAYS = 7;

/**
 * The days an export taken at `exportTime` owes files for: the last day that had ended (always
 * written, the same bytes when it exists), then the CATCH_UP_DAYS before it, newest first, which
 * the job writes only where no file exists yet.
 */
export function daysOwedBy(exportTime: Date): { due: LedgerDay; catchUp: LedgerDay[] } {
  const todayStart = Math.floor(exportTime.getTime() / DAY_MS) * DAY_MS;
  const day = (daysBefore: number) => new Date(todayStart - daysBefore * DAY_MS).toISOString().slice(0, 10);
  return { due: day(1), catchUp: Array.from({ length: CATCH_UP_DAYS }, (_, index) => day(index + 2)) };
}

/**
 * The postings of the chosen days while an export streams past, each held as its finished CSV
 * line (about 250 bytes a posting): the export is read once and never held, and memory is bounded
 * by the postings of the days being written, not by the table. `files()` sorts each day oldest
 * first. Entries are never edited, so any export taken after a day ended gives that day's file
 * the same bytes.
 */
export class DayPostings {
  private readonly rows = new Map<LedgerDay, { createdAt: string; entryId: string; line: string }[]>();

  constructor(days: readonly LedgerDay[]) {
    for (const day of days) this.rows.set(day, []);
  }

  add(entry: LedgerEntry): void {
    const held = this.rows.get(dayOf(entry.createdAt));
    if (!held) return;
    for (const row of postingRows(entry)) held.push({ createdAt: row.createdAt, entryId: row.entryId, line: csvLine(row, POSTING_COLUMNS) });
  }

  /** Each day's CSV as lines (header first), oldest posting first; an entry keeps its postings' order. */
  *file(day: LedgerDay): Generator<string> {
    const held = this.rows.get(day);
    if (!held) throw new Error(`${day} is not one of the days being collected`);
    // Array.prototype.sort is stable: an entry's postings stay in their order.
    held.sort(byCreation);
    yield POSTING_COLUMNS.join(',') + '\n';
    for (const row of held) yield row.line;
  }

  count(day: LedgerDay): number {
    return this.rows.get(day)?.length ?? 0;
  }

  /** Lets go of a day's rows once its file is written. */
  release(day: LedgerDay): void {
    this.rows.delete(day);
  }
}
