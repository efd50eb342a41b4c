import type { ErrorCode } from './types.ts';

/**
 * Every failure the client reports is a CambioError; the subclass tells the family (what to do
 * about it), `code` the contract's reason, `status` the HTTP status and `requestId` the id to quote
 * to support. Match on the class or on `code`, never on `message`.
 */
export class CambioError extends Error {
  /** The contract's code (`INSUFFICIENT_BALANCE`, …), or a client-side one such as `CONNECTION_FAILED`. */
  readonly code: ErrorCode | ClientErrorCode;
  /** HTTP status; undefined when no answer came back. */
  readonly status: number | undefined;
  /** The answer's `X-Request-Id`. */
  readonly requestId: string | undefined;
  /** `error.details` from the answer: for VALIDATION_FAILED a list of `{path, message}`. */
  readonly details: unknown;

  constructor(
    message: string,
    init: { code: ErrorCode | ClientErrorCode; status?: number; requestId?: string; details?: unknown; cause?: unknown },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? null;
  }
}

export type ClientErrorCode = 'CONNECTION_FAILED' | 'TIMEOUT' | 'INVALID_RESPONSE' | 'WEBHOOK_VERIFICATION_FAILED';

/** 400, 403, 413, 415: the request itself is wrong (see `details`), or production's firewall refused it (403 FORBIDDEN); retrying it will not help. */
export class InvalidRequestError extends CambioError {}
/** 401: the key or secret is missing or wrong. */
export class AuthenticationError extends CambioError {}
/** 404: unknown id (or another company's). */
export class NotFoundError extends CambioError {}
/** 409: a duplicate reference, a quote already used, or the same Idempotency-Key still running. */
export class ConflictError extends CambioError {}
/** 422: refused on its merits: INSUFFICIENT_BALANCE, QUOTE_EXPIRED, AMOUNT_TOO_SMALL, LIMIT_REACHED, ADDRESS_NOT_ALLOWED, IDEMPOTENCY_KEY_REUSED. */
export class RefusedError extends CambioError {}
/** 429: throttled; the client already retried with backoff. */
export class RateLimitError extends CambioError {}
/** 5xx: Cambio failed or a dependency is unavailable (e.g. PRICE_UNAVAILABLE); the client already retried. */
export class ApiServerError extends CambioError {}
/** No answer: the connection failed or timed out; the client already retried. */
export class ConnectionError extends CambioError {}
/** `webhooks.verify` refused a delivery: do not trust its body. */
export class WebhookVerificationError extends CambioError {
  constructor(message: string) {
    super(message, { code: 'WEBHOOK_VERIFICATION_FAILED' });
  }
}
