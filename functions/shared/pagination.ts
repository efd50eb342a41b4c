/** Every list route's `limit` (../shared/api-contract.md, Conventions: 1–100, default 20). */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** A page of records, newest first, and where the next one starts (null on the last page; opaque). */
export interface Page<T> {
  records: T[];
  nextCursor: string | null;
}

/** What a store is asked for: a checked limit, and the cursor where the previous page stopped. */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** A list query's page request, its limit checked (default 20). */
export function pageRequest(query: { limit?: number; cursor?: string }): PageRequest {
  return { limit: pageLimit(query.limit), ...(query.cursor !== undefined && { cursor: query.cursor }) };
}

/** The limit a list query asks for, checked: the HTTP schema already refuses others with a 400. */
export function pageLimit(limit: number | undefined): number {
  const value = limit ?? LIST_LIMIT.default;
  if (!Number.isInteger(value) || value < LIST_LIMIT.min || value > LIST_LIMIT.max) {
    throw new RangeError(`limit must be an integer in ${LIST_LIMIT.min}..${LIST_LIMIT.max}, got ${value}`);
  }
  return value;
}
