/**
 * The contract's error codes (../shared/api-contract.md, Conventions) and the one mapping from
 * code to HTTP status. Domain code throws ApiError; the HTTP layer turns it into the envelope.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  AUTH_FAILED: 401,
  /** Production only: AWS WAF refused the request as an attack signature (lib/waf.ts); docs/api-notes.md. */
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
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** No current USDT/BRL price to quote on (pricing.ts PriceUnavailableError); retry shortly. */
  PRICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  path: string;
  message: string;
}

export type ErrorDetails = FieldError[] | Record<string, unknown> | null;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const AUTH_FAILED_MESSAGE = 'Authentication failed: invalid API key or secret';

export const notFound = (what = 'Resource'): ApiError => new ApiError('NOT_FOUND', `${what} not found`);

export const validationFailed = (details: FieldError[]): ApiError =>
  new ApiError('VALIDATION_FAILED', 'The request is invalid; see details', details);
