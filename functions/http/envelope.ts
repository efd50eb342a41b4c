import type { ErrorCode, ErrorDetails } from '#domain/errors';

/** The contract's envelope (../shared/api-contract.md, Conventions), for handlers and gateway responses alike. */
export function successEnvelope(data: unknown, pagination?: { nextCursor: string | null }): string {
  return JSON.stringify(pagination ? { success: true, data, pagination } : { success: true, data });
}

export function errorEnvelope(code: ErrorCode, message: string, details: ErrorDetails = null): string {
  return JSON.stringify({ success: false, error: { code, message, details } });
}

export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;
