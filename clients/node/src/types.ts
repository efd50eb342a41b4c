import type { components } from './generated/openapi.ts';

/** The API's records and request bodies, named as openapi.json names them. */
type Schemas = components['schemas'];

export type Company = Schemas['Company'];
/** A company's rate limit: `tier` (`standard` for a new company; `growth`, `scale`, or a tier added
 * later), `requestsPerSecond` and `burst` (integers). Past it, calls fail with a `RateLimitError`. */
export type RateLimit = Company['rateLimit'];
export type Balance = Schemas['Balance'];
export type Deposit = Schemas['Deposit'];
export type Withdrawal = Schemas['Withdrawal'];
/** What a payout cost Cambio on its network, once final: `asset` (the network's coin: `TRX`, `ETH`,
 * `BNB`, `POL`, `SOL`), `amount` (a decimal string with all the coin's decimals, never a number) and
 * `tokenAccountCreated` (Solana's alone). Cambio's cost, not charged: a withdrawal's `fee` covers it.
 * Null on a withdrawal until then. */
export type WithdrawalNetworkCost = NonNullable<Withdrawal['networkCost']>;
export type Quote = Schemas['Quote'];
export type Conversion = Schemas['Conversion'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type DeletedWebhook = Schemas['DeletedWebhook'];

export type CreateDepositParams = Schemas['CreateDepositRequest'];
export type CreateWithdrawalParams = Schemas['CreateWithdrawalRequest'];
export type CreateQuoteParams = Schemas['CreateQuoteRequest'];
export type CreateConversionParams = Schemas['CreateConversionRequest'];
export type WebhookParams = Schemas['WebhookRequest'];

/** The contract's error codes (`error.code` in the envelope). */
export type ErrorCode = Schemas['ErrorResponse']['error']['code'];

/** What Cambio POSTs to a webhook: one member per event type, `data` being the record. */
export type WebhookEvent =
  | Schemas['DepositConfirmingEvent']
  | Schemas['DepositCompletedEvent']
  | Schemas['DepositExpiredEvent']
  | Schemas['DepositHeldEvent']
  | Schemas['DepositTransferReversedEvent']
  | Schemas['WithdrawalProcessingEvent']
  | Schemas['WithdrawalCompletedEvent']
  | Schemas['WithdrawalFailedEvent']
  | Schemas['ConversionCompletedEvent'];

export type EventType = WebhookEvent['type'];

export interface ListParams {
  /** 1–100, default 20. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** The HTTP answer a returned object came from. */
export interface ResponseInfo {
  /** HTTP status (200, 201, …). */
  readonly status: number;
  /** The answer's `X-Request-Id`: quote it to support. */
  readonly requestId: string | undefined;
  readonly headers: Headers;
}

/** A returned object with its answer on `lastResponse`, a non-enumerable property: it is left out
 * of JSON.stringify, spreads and console.log, so the object serialises as the API's record. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

export interface Page<T> {
  data: WithResponse<T>[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  requestId: string | undefined;
  /** Non-enumerable, as on every returned object. */
  readonly lastResponse: ResponseInfo;
}

export interface RequestOptions {
  /** Defaults to a fresh UUID per call, reused by that call's retries. Pass your own to make a
   * call safe to repeat across process restarts (e.g. derived from your order id). */
  idempotencyKey?: string;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` (per try) for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}
