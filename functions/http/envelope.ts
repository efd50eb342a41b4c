import type { ErrorCode, ErrorDetails } from '#functions/shared/errors';
import type { Page } from '#functions/shared/pagination';

/** The contract's envelope (../shared/api-contract.md, Conventions), for handlers and gateway responses alike. */
export function successEnvelope(data: unknown, pagination?: { nextCursor: string | null }): string {
  return JSON.stringify(pagination ? { success: true, data, pagination } : { success: true, data });
}

/** A list route's answer: the page's records in `data` (each through `view`, the contract's
 * record), and where the next page starts in `pagination`. */
export function pageResult<T>(page: Page<T>, view: (record: T) => unknown = (record) => record) {
  return { data: page.records.map(view), pagination: { nextCursor: page.nextCursor } };
}

export function errorEnvelope(code: ErrorCode, message: string, details: ErrorDetails = null): string {
  return JSON.stringify({ success: false, error: { code, message, details } });
}

export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;
