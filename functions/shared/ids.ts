import { monotonicFactory } from 'ulid';
import { notFound } from './errors.ts';

/** Prefixed ULIDs (../shared/api-contract.md, Conventions): they sort by creation time, which the
 * newest-first lists rely on, and the prefix tells a human what an id names. */
export const ID_PREFIXES = {
  company: 'cmp',
  deposit: 'dep',
  withdrawal: 'wdr',
  quote: 'qte',
  conversion: 'cnv',
  webhook: 'whk',
  event: 'evt',
  ledgerEntry: 'led',
  auditEntry: 'aud',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let nextUlid = monotonicFactory();
let lastTime = -Infinity;

/**
 * An id whose time is `now`, always. ulid's monotonic factory never goes back: asked for a time
 * before the last it gave (a record built with a `now` taken before an await, while another's was
 * built meanwhile), it would give the later time, so the id's day and the record's `createdAt` could
 * differ across a midnight, and the statement (which selects entries by their ids' time) and the
 * finance day file (by `createdAt`) put one entry on different days. A time before the last starts
 * a new factory; ids made in one millisecond one after another still sort in the order made.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  if (now < lastTime) nextUlid = monotonicFactory();
  lastTime = now;
  return `${ID_PREFIXES[kind]}_${nextUlid(now)}`;
}

/**
 * Whether a UTC day (`YYYY-MM-DD`) can bound a range of ids: a ULID carries its time as
 * milliseconds since 1970, up to the year 10889 (past any four-digit year), so a day before 1970
 * has no id to stand for it. Lists by date turn their days into id bounds.
 */
export const isIdDay = (day: string): boolean => day >= '1970-01-01';
export const ID_DAY_MESSAGE = 'must be a date from 1970-01-01 to 9999-12-31';

const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` is a well-formed id of that kind. Malformed ids are answered 404 without a read. */
export function isId(kind: IdKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ULID_PATTERN.test(value.slice(prefix.length));
}

/**
 * A company's record by its id, or the contract's 404 (`what not found`): a malformed id is never
 * looked up, and another company's id finds nothing, since `read` looks in the caller's company.
 */
export async function foundById<T>(kind: IdKind, id: string, read: (id: string) => Promise<T | null>, what: string): Promise<T> {
  const found = isId(kind, id) ? await read(id) : null;
  if (!found) throw notFound(what);
  return found;
}
