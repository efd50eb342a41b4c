/**
 * The contract's error codes (../shared/api-contract.md, Conventions). Domain code throws ApiError
 * with a code; which HTTP status a code is answered with is the HTTP layer's business alone
 * (#http/error-status), which also turns the error into the envelope.
 */
export const ERROR_CODES = [
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'AUTH_FAILED',
  'FORBIDDEN',
  'NOT_FOUND',
  'DUPLICATE_REFERENCE',
  'IDEMPOTENCY_KEY_IN_USE',
  'QUOTE_ALREADY_USED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INSUFFICIENT_BALANCE',
  'QUOTE_EXPIRED',
  'AMOUNT_TOO_SMALL',
  'LIMIT_REACHED',
  'ADDRESS_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'PRICE_UNAVAILABLE',
  'NETWORK_UNAVAILABLE',
  'SCREENING_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  path: string;
  message: string;
}

export type ErrorDetails = FieldError[] | Record<string, unknown> | null;

/** A refusal the contract names: its code, the message and details the caller sees, and (for the
 * log only, never the caller) the cause. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

export const AUTH_FAILED_MESSAGE = 'Authentication failed: invalid API key or secret';

export const notFound = (what = 'Resource'): ApiError => new ApiError('NOT_FOUND', `${what} not found`);

export const validationFailed = (details: FieldError[]): ApiError =>
  new ApiError('VALIDATION_FAILED', 'The request is invalid; see details', details);

/** A debit the company's available balance cannot cover (a store's guarded balance update failed). */
export const insufficientBalance = (): ApiError => new ApiError('INSUFFICIENT_BALANCE', 'The available balance is not enough for this operation');

/** The company already has a record of this kind with this reference; `existingId` names it. */
export const duplicateReference = (what: 'deposit' | 'withdrawal', existingId: string | null): ApiError =>
  new ApiError('DUPLICATE_REFERENCE', `A ${what} with this reference already exists`, { existingId });

/** A code the identity provider checked and found wrong, as opposed to a sign-in that expired or a
 * set-up to start again: only this counts toward the lock on codes (functions/people/code-attempts.ts). */
export class WrongCodeError extends ApiError {}

/**
 * How a sign-in step is refused (the identity provider's answers, in the words a person sees).
 * Said the same way for a wrong email and a wrong password, as Cognito itself does with
 * PreventUserExistenceErrors.
 */
export const signInRefused = {
  wrongEmailOrPassword: (): ApiError => new ApiError('AUTH_FAILED', 'Sign-in failed: wrong email or password'),
  sessionEnded: (): ApiError => new ApiError('AUTH_FAILED', 'The session has ended; sign in again'),
  wrongCode: (): ApiError => new WrongCodeError('AUTH_FAILED', 'Wrong authentication code: sign in again'),
  expired: (): ApiError => new ApiError('AUTH_FAILED', 'The sign-in has expired; sign in again'),
  unsupportedStep: (): ApiError => new ApiError('AUTH_FAILED', 'This account needs a sign-in step the dashboard does not support'),
  lockedOut: (): ApiError => new ApiError('RATE_LIMITED', 'Too many failed sign-ins: wait a moment and try again'),
};
