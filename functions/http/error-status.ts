import type { ErrorCode } from '#functions/shared/errors';

/** The one mapping from a contract error code to its HTTP status (../shared/api-contract.md, Conventions). */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  AUTH_FAILED: 401,
  /** A restricted API key writing, or used from an address it does not allow (functions/http/route.ts);
   * in production, AWS WAF refusing an attack signature (lib/waf.ts); docs/api-notes.md. */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DUPLICATE_REFERENCE: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  QUOTE_ALREADY_USED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_BALANCE: 422,
  QUOTE_EXPIRED: 422,
  AMOUNT_TOO_SMALL: 422,
  LIMIT_REACHED: 422,
  /** A withdrawal's or a deposit split's address is not on the company's withdrawal allowlist, or not yet usable. */
  ADDRESS_NOT_ALLOWED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** No current USDT/BRL price to quote on (functions/conversions/pricing.ts PriceUnavailableError); retry shortly. */
  PRICE_UNAVAILABLE: 503,
  /** A network's part the request needs is not ready (Solana's deposit addresses not yet written ahead by the sweeper: functions/networks/solana/deposit-owners.ts); retry shortly. */
  NETWORK_UNAVAILABLE: 503,
  /** The sanctions screening list has never been loaded (functions/screening/screening.ts screeningUnavailable): no destination is taken unscreened; retry later. */
  SCREENING_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;
