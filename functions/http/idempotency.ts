import { createHash } from 'node:crypto';
import { ApiError, validationFailed } from '#functions/shared/errors';
import type { Log } from '#functions/shared/log';
import { successEnvelope } from './envelope.ts';

/**
 * Idempotency-Key on POST (../shared/api-contract.md, Conventions; the IETF Idempotency-Key
 * draft): the first request with a key runs; a retry with the same body replays its answer; the
 * same key with another body is 422; a retry while the first still runs is 409.
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** Longer than any API Lambda runs: after it, a request that died mid-way no longer holds the key. */
export const IN_FLIGHT_LOCK_SECONDS = 60;

export interface StoredResponse {
  statusCode: number;
  body: string;
}

export interface IdempotencyScope {
  companyId: string;
  key: string;
  /** Hash of the route and the canonical body: "the same request". */
  fingerprint: string;
  /** This request's own mark on the key (random): only the request holding the key stores its
   * answer or frees it, so one that stalled past its lock while a retry took the key over cannot
   * overwrite that one's answer, nor free its key for a third. */
  claim: string;
}

export type BeginOutcome =
  | { kind: 'started' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export interface IdempotencyStore {
  begin(scope: IdempotencyScope, now: Date): Promise<BeginOutcome>;
  /** Stores the answer while this request holds the key; false if another took it over. */
  complete(scope: IdempotencyScope, response: StoredResponse, now: Date): Promise<boolean>;
  /** Forgets the key while this request holds it, so a retry runs again: for answers that must not be replayed. */
  release(scope: IdempotencyScope): Promise<void>;
}

/** The answer a route's status and data make, as an Idempotency-Key keeps it: byte for byte what
 * the route sends (./route.ts), so a replay is the first answer. */
export function storedAnswer(status: number, data: unknown): StoredResponse {
  return { statusCode: status, body: successEnvelope(data) };
}

/** 409: another request holds the key (or took it over while this one ran): retrying is right. */
export const keyInUse = () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');

export function parseIdempotencyKey(value: string): string {
  if (value.length < 1 || value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw validationFailed([{ path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]);
  }
  return value;
}

export function requestFingerprint(method: string, resource: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${resource}\n${canonicalJson(body)}`).digest('hex');
}

/** JSON with object keys sorted, so the same body sent with keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs `execute` at most once per key. What is kept: any answer the request reached on its
 * merits (2xx, and 4xx refusals such as 422 INSUFFICIENT_BALANCE, as Stripe does). Not kept, so a
 * retry runs afresh: 400 (the request was malformed: nothing to remember) and 5xx (nothing is
 * known to have happened; the business guards — unique references, single-use quotes — stop a
 * re-run from doubling money if the first attempt did commit). A route whose work is one transaction
 * stores its answer in it (`leaveKey`: every POST that creates a record), so no crash between the
 * work and its answer can leave the key to a retry that does the work again or meets it as a
 * duplicate.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  scope: IdempotencyScope,
  execute: () => Promise<StoredResponse & { headers?: Record<string, string>; leaveKey?: boolean }>,
  log: Log,
): Promise<StoredResponse & { headers?: Record<string, string>; replayed: boolean }> {
  const outcome = await store.begin(scope, new Date());
  if (outcome.kind === 'mismatch') {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (outcome.kind === 'in_progress') throw keyInUse();
  if (outcome.kind === 'replay') return { ...outcome.response, replayed: true };
  let response: Awaited<ReturnType<typeof execute>>;
  try {
    response = await execute();
  } catch (error) {
    await store.release(scope);
    throw error;
  }
  // Left as it is: the route stored its answer with its work, or lost the claim to a retry that
  // took it over after the lock (storing this answer, or releasing, would undo that one's).
  if (response.leaveKey) {
    // nothing to write
  } else if (response.statusCode === 400 || response.statusCode >= 500) await store.release(scope);
  else {
    try {
      if (!(await store.complete(scope, { statusCode: response.statusCode, body: response.body }, new Date()))) {
        log.warn('Idempotency-Key answer not stored: a retry took the key over', { companyId: scope.companyId, statusCode: response.statusCode });
      }
    } catch (error) {
      // The request's work is committed: its answer goes to the caller, who then has no reason to
      // retry. Stored it is not, so a retry after the claim's lock runs afresh (a 500 here would
      // invite just that), where the business guards (unique references, single-use quotes) hold.
      log.error('Idempotency-Key answer not stored: a retry after its lock runs the request again', {
        companyId: scope.companyId,
        statusCode: response.statusCode,
        error: (error as Error).name ?? 'Error',
      });
    }
  }
  const { leaveKey: _, ...answer } = response;
  return { ...answer, replayed: false };
}
