import { randomUUID } from 'node:crypto';
import { ApiServerError, AuthenticationError, CambioError, ConflictError, ConnectionError, InvalidRequestError, NotFoundError, RateLimitError, RefusedError, type ClientErrorCode } from './errors.ts';
import { verifyWebhook, verifyWebhookSignature, type UnknownWebhookEvent, type VerifyOptions, type WebhookHeaders } from './webhooks.ts';
import type {
  Balance,
  Company,
  Conversion,
  CreateConversionParams,
  CreateDepositParams,
  CreatedWebhook,
  CreateQuoteParams,
  CreateWithdrawalParams,
  DeletedWebhook,
  ErrorCode,
  Deposit,
  ListParams,
  Page,
  Quote,
  RequestOptions,
  Webhook,
  WebhookEvent,
  WebhookParams,
  Withdrawal,
  ResponseInfo,
  WithResponse,
} from './types.ts';
import packageJson from '../package.json' with { type: 'json' };

/** This package's version, as its package.json says, sent in every User-Agent. */
export const VERSION: string = packageJson.version;

/** Where the base URL comes from, for the errors that ask for one. There is no default host:
 * each stage is its operator's deployment, reached at its API Gateway URL or the custom domain its
 * operator gave it (docs/api-notes.md, Integrators' kit). */
const WHERE_THE_URL_IS =
  "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), " +
  'or for the local runtime the API URL `npm start` prints (http://127.0.0.1:3000/v1)';

export interface CambioOptions {
  apiKey: string;
  apiSecret: string;
  /** The API's URL: your stack's `ApiUrl` output (https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1),
   * or the local runtime's (`npm start` prints it). With or without the trailing `/v1`. Plain
   * http is accepted for loopback only. */
  baseUrl: string;
  /** Retries after the first try, on network errors, timeouts, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** Per try. Default 30 s; a call's own `timeoutMs` overrides it. */
  timeoutMs?: number;
  /** Backoff before retry n (0-based): a random delay between half and all of
   * min(maxDelayMs, initialDelayMs × 2^n), by default 0.5 s doubling up to 5 s as every official
   * client does (../shared/clients.md); a Retry-After up to maxRetryAfterMs wins. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  /** Defaults to the global fetch (Node 20+). */
  fetch?: typeof fetch;
}

interface Answer<T> {
  data: T;
  pagination?: { nextCursor: string | null };
  response: ResponseInfo;
}

/** A list call: `await` it for one page, or `for await` over it for every item of every page. */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<WithResponse<T>> {
  #first: Promise<Page<T>> | undefined;

  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>, private readonly cursor?: string) {}

  #firstPage(): Promise<Page<T>> {
    return (this.#first ??= this.fetchPage(this.cursor));
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  /** Every item of every page. A cursor the API answers again after this walk followed it (A → B → A) would loop for
   * ever: the walk stops there with a CambioError `INVALID_RESPONSE` instead. */
  async *[Symbol.asyncIterator](): AsyncIterator<WithResponse<T>> {
    let page = await this.#firstPage();
    const followed = new Set<string>(this.cursor ? [this.cursor] : []);
    for (;;) {
      yield* page.data;
      const next = page.nextCursor;
      if (!next) return;
      if (followed.has(next)) {
        throw new CambioError(
          `The API answered nextCursor ${JSON.stringify(next)} again after this walk had followed it: stopping rather than looping (INVALID_RESPONSE${page.requestId ? `, request ${page.requestId}` : ''})`,
          { code: 'INVALID_RESPONSE', status: page.lastResponse.status, requestId: page.requestId },
        );
      }
      followed.add(next);
      page = await this.fetchPage(next);
    }
  }
}

/**
 * The Cambio API. Every POST carries an Idempotency-Key (a UUID unless you pass one), the same on
 * each retry of that call, so a retried withdrawal is replayed by the API, never made twice.
 */
export class Cambio {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #apiSecret: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: CambioOptions) {
    if (!options?.apiKey || !options.apiSecret) throw new TypeError('new Cambio({ apiKey, apiSecret, baseUrl }) needs apiKey and apiSecret');
    checkCredential('apiKey', options.apiKey);
    checkCredential('apiSecret', options.apiSecret);
    this.baseUrl = baseUrlOf(options.baseUrl, 'environment' in options);
    this.#apiKey = options.apiKey;
    this.#apiSecret = options.apiSecret;
    this.#maxRetries = checkedMaxRetries(options.maxRetries ?? 2);
    this.#timeoutMs = checkedTimeoutMs(options.timeoutMs ?? 30_000);
    this.#initialDelayMs = options.initialDelayMs ?? 500;
    this.#maxDelayMs = options.maxDelayMs ?? 5_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  readonly company = {
    get: (options?: RequestOptions): Promise<WithResponse<Company>> => this.#data('GET', '/v1/company', undefined, options),
    balance: (options?: RequestOptions): Promise<WithResponse<Balance>> => this.#data('GET', '/v1/company/balance', undefined, options),
  };

  readonly deposits = {
    create: async (params: CreateDepositParams, options?: RequestOptions): Promise<WithResponse<Deposit>> => {
      checkMoney('deposits.create', 'amount', params?.amount);
      checkMoney('deposits.create', 'split.amount', (params?.split as { amount?: unknown } | undefined)?.amount);
      return this.#data('POST', '/v1/deposits', params, options);
    },
    get: (id: string, options?: RequestOptions): Promise<WithResponse<Deposit>> => this.#data('GET', `/v1/deposits/${segment(id)}`, undefined, options),
  };

  readonly withdrawals = {
    create: async (params: CreateWithdrawalParams, options?: RequestOptions): Promise<WithResponse<Withdrawal>> => {
      checkMoney('withdrawals.create', 'amount', params?.amount);
      return this.#data('POST', '/v1/withdrawals', params, options);
    },
    get: (id: string, options?: RequestOptions): Promise<WithResponse<Withdrawal>> => this.#data('GET', `/v1/withdrawals/${segment(id)}`, undefined, options),
  };

  readonly conversions = {
    /** A USDT → BRL quote, valid 30 s. */
    quote: async (params: CreateQuoteParams, options?: RequestOptions): Promise<WithResponse<Quote>> => {
      checkMoney('conversions.quote', 'sourceAmount', params?.sourceAmount);
      return this.#data('POST', '/v1/conversions/quote', params, options);
    },
    /** Executes a quote. */
    create: (params: CreateConversionParams, options?: RequestOptions): Promise<WithResponse<Conversion>> =>
      this.#data('POST', '/v1/conversions', params, options),
    list: (params: ListParams = {}, options?: RequestOptions): PagePromise<Conversion> =>
      new PagePromise((cursor) => this.#page<Conversion>('/v1/conversions', { ...params, cursor }, options), params.cursor),
    get: (id: string, options?: RequestOptions): Promise<WithResponse<Conversion>> => this.#data('GET', `/v1/conversions/${segment(id)}`, undefined, options),
  };

  readonly webhooks = {
    list: (params: ListParams = {}, options?: RequestOptions): PagePromise<Webhook> =>
      new PagePromise((cursor) => this.#page<Webhook>('/v1/webhooks', { ...params, cursor }, options), params.cursor),
    /** The answer carries the signing `secret`, shown only this once: store it. */
    create: async (params: WebhookParams, options?: RequestOptions): Promise<WithResponse<CreatedWebhook>> =>
      withHiddenSecret(await this.#data<CreatedWebhook>('POST', '/v1/webhooks', params, options)),
    get: (id: string, options?: RequestOptions): Promise<WithResponse<Webhook>> => this.#data('GET', `/v1/webhooks/${segment(id)}`, undefined, options),
    /** Replaces the webhook (PUT): omitted optional fields take their defaults; the secret is kept. */
    update: (id: string, params: WebhookParams, options?: RequestOptions): Promise<WithResponse<Webhook>> =>
      this.#data('PUT', `/v1/webhooks/${segment(id)}`, params, options),
    /** DELETE is retried like any call; when a retry is answered 404, the try whose answer was lost deleted the
     * webhook, and the call returns `{ id, deleted: true }` as a delete answered 200 does. A 404 to the first try is a
     * NotFoundError. */
    delete: (id: string, options?: RequestOptions): Promise<WithResponse<DeletedWebhook>> =>
      this.#data('DELETE', `/v1/webhooks/${segment(id)}`, undefined, options, (): DeletedWebhook => ({ id, deleted: true })),
    /** Verifies a delivery (Standard Webhooks) over the raw body, then returns its event; a verified body that is not
     * a Cambio event comes back as an UnknownWebhookEvent (`type: null`), never as a bad signature. */
    verify: (rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options?: VerifyOptions): WebhookEvent | UnknownWebhookEvent =>
      verifyWebhook(rawBody, headers, secret, options),
    /** The first step of `verify` alone: throws WebhookVerificationError unless signed and fresh; the body is not read. */
    verifySignature: (rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options?: VerifyOptions): void =>
      verifyWebhookSignature(rawBody, headers, secret, options),
  };

  async #data<T extends object>(method: string, path: string, body: unknown, options: RequestOptions = {}, goneOnRetry?: () => T): Promise<WithResponse<T>> {
    const answer = await this.#request<T>(method, path, body, options, goneOnRetry);
    return withResponse(answer.data, answer.response);
  }

  async #page<T extends object>(path: string, params: ListParams, options: RequestOptions = {}): Promise<Page<T>> {
    const query = new URLSearchParams();
    if (params.limit !== undefined) query.set('limit', String(params.limit));
    if (params.cursor !== undefined) query.set('cursor', params.cursor);
    const answer = await this.#request<T[]>('GET', query.size ? `${path}?${query}` : path, undefined, options);
    // A list's data is an array, as the other five clients check: anything else is no answer of the API's.
    if (!Array.isArray(answer.data)) {
      const { requestId, status } = answer.response;
      throw new CambioError(`The API answered a list without an array of records (INVALID_RESPONSE${requestId ? `, request ${requestId}` : ''}): is baseUrl the API's URL? ${WHERE_THE_URL_IS}`, {
        code: 'INVALID_RESPONSE',
        status,
        requestId,
      });
    }
    const data = answer.data.map((item) => withResponse(item, answer.response));
    return withResponse({ data, nextCursor: answer.pagination?.nextCursor ?? null, requestId: answer.response.requestId }, answer.response);
  }

  /** `goneOnRetry`: what a 404 to a retry of this call means (a DELETE whose earlier try did it, its answer lost). */
  async #request<T>(method: string, path: string, body: unknown, options: RequestOptions, goneOnRetry?: () => T): Promise<Answer<T>> {
    const headers: Record<string, string> = {
      'X-Api-Key': this.#apiKey,
      'X-Api-Secret': this.#apiSecret,
      Accept: 'application/json',
      'User-Agent': `cambio-node/${VERSION} node/${process.versions.node}`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // One key per call, kept across its retries: the API replays the first answer instead of
    // doing the work again (../shared/api-contract.md, Conventions: Idempotency-Key).
    if (method === 'POST') headers['Idempotency-Key'] = options.idempotencyKey === undefined ? randomUUID() : checkedIdempotencyKey(options.idempotencyKey);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const maxRetries = checkedMaxRetries(options.maxRetries ?? this.#maxRetries);
    const timeoutMs = checkedTimeoutMs(options.timeoutMs ?? this.#timeoutMs);

    // An earlier try may have done the work: its answer was lost (a connection failure or a
    // timeout) or was a 5xx. A 429 did nothing, so a 404 after only 429s is the call's own answer;
    // nor did a try that never connected (refused, its host not found).
    let mayHaveBeenDone = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
        // Never follow a redirect: it would carry X-Api-Secret to whatever URL the answer names
        // (another host, or plain http), and turn a POST into a GET. The API answers none.
        response = await this.#fetch(`${this.baseUrl}${path}`, { method, headers, body: payload, signal, redirect: 'manual' });
        text = await response.text();
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        const timedOut = (cause as Error)?.name === 'TimeoutError';
        const error = new ConnectionError(
          `${timedOut ? `No answer within ${timeoutMs} ms` : 'Could not reach Cambio'} (${method} ${this.baseUrl}${path}): ${String((cause as Error)?.message ?? cause)}`,
          { code: timedOut ? 'TIMEOUT' : 'CONNECTION_FAILED', cause },
        );
        if (attempt >= maxRetries) throw error;
        mayHaveBeenDone ||= !neverConnected(cause);
        await sleep(this.#backoff(attempt));
        continue;
      }
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        throw new CambioError(
          `HTTP ${response.status}: a redirect, not followed (the API answers none; is baseUrl the API's URL, with https? ${WHERE_THE_URL_IS}) (INVALID_RESPONSE${requestId ? `, request ${requestId}` : ''})`,
          { code: 'INVALID_RESPONSE', status: response.status || undefined, requestId },
        );
      }
      const json = parseJson(text);
      const info: ResponseInfo = { status: response.status, requestId, headers: response.headers };
      if (response.ok && json?.success === true) {
        return { data: json.data as T, pagination: json.pagination, response: info };
      }
      const error = isErrorEnvelope(response.status, json) ? errorFromResponse(response.status, json, requestId) : errorWithoutEnvelope(response.status, json, requestId);
      if (mayHaveBeenDone && goneOnRetry && error instanceof NotFoundError) return { data: goneOnRetry(), response: info };
      if (attempt >= maxRetries || !retryable(error)) throw error;
      mayHaveBeenDone ||= error instanceof ApiServerError;
      await sleep(this.#retryAfter(response) ?? this.#backoff(attempt));
    }
  }

  #backoff(attempt: number): number {
    const ceiling = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  #retryAfter(response: Response): number | undefined {
    const value = response.headers.get('retry-after');
    if (!value) return undefined;
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
    return Number.isFinite(ms) && ms >= 0 && ms <= this.#maxRetryAfterMs ? ms : undefined;
  }
}

/** What a failure before the connection was made carries as its `code` (on fetch's error's `cause`, as undici puts it,
 * or on the error itself, as other fetch implementations do): refused, the host not found, undici's connect timeout. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed try ended before its connection was made: it never reached the API, so it did nothing, and a
 * DELETE's 404 on the retry is the record's own answer. Our own timeout (a TimeoutError, no code) covers the whole
 * try, so it may have reached the API and is not one of these.
 */
function neverConnected(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== null && typeof cause === 'object' && depth < 8; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, errors } = cause as { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
    // Node tries each address of a host in turn and, when all fail, throws their AggregateError.
    if (Array.isArray(errors) && errors.length > 0 && errors.every((each) => neverConnected(each))) return true;
  }
  return false;
}

/** Refused before any request, as the Java and .NET clients do: NaN would retry for ever (`attempt >= NaN` is never
 * true), and a fraction or a negative count means nothing. */
function checkedMaxRetries(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new TypeError(`maxRetries must be a whole number, 0 or more, got ${shown(value)}`);
  return value as number;
}

/** Refused before any request: AbortSignal.timeout takes only a whole number of ms up to 2^32 - 1, and would throw a
 * RangeError inside the try, reported as "Could not reach Cambio" after every retry. */
function checkedTimeoutMs(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 4_294_967_295) {
    throw new TypeError(`timeoutMs must be a whole number of milliseconds from 1 to 4294967295, got ${shown(value)}`);
  }
  return value as number;
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

/** Network errors, 429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running). */
function retryable(error: CambioError): boolean {
  return (
    error instanceof RateLimitError ||
    error instanceof ApiServerError ||
    error instanceof ConnectionError ||
    (error instanceof ConflictError && error.code === 'IDEMPOTENCY_KEY_IN_USE')
  );
}

/**
 * The key and secret go in headers: a line break (a secret read from a file keeps its newline), a
 * space or any other character outside printable ASCII is refused here, without echoing the value,
 * rather than by fetch with a message that quotes it (and, as a ConnectionError, after retries).
 */
function checkCredential(name: 'apiKey' | 'apiSecret', value: unknown): void {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${typeof value}`);
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new TypeError(`${name} must be printable ASCII without spaces (check for a stray newline or quote around it)`);
  }
}

/** Your own Idempotency-Key goes in a header, as the API takes it (1–255 printable ASCII
 * characters): refused before any request, rather than by fetch after retries, quoted. */
function checkedIdempotencyKey(key: unknown): string {
  if (typeof key !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new TypeError('idempotencyKey must be 1–255 printable ASCII characters (e.g. a UUID, or one derived from your order id)');
  }
  return key;
}

/**
 * The base URL, checked before any request carries the key and secret: given explicitly (no
 * default host, nothing guessed from the key), http(s), and https unless it is loopback, so the
 * credentials never cross the network in clear text.
 */
function baseUrlOf(baseUrl: unknown, gaveEnvironment: boolean): string {
  if (baseUrl === undefined || baseUrl === null || baseUrl === '') {
    const removed = gaveEnvironment ? ' (`environment` is gone: there are no named hosts, pass the URL as baseUrl)' : '';
    throw new TypeError(`new Cambio({ apiKey, apiSecret, baseUrl }) needs baseUrl${removed}: ${WHERE_THE_URL_IS}`);
  }
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(withoutUserinfo(String(baseUrl)))}: use ${WHERE_THE_URL_IS}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(withoutUserinfo(String(baseUrl)))}: use ${WHERE_THE_URL_IS}`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new TypeError(
      `baseUrl ${url.origin} is plain http, which would send your API key and secret in clear text: use https (${WHERE_THE_URL_IS}); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    // Named, not echoed: the user and password, the query and the fragment may be secrets.
    const shown = `${url.protocol}//${url.username || url.password ? '***@' : ''}${url.host}${url.pathname}${url.search ? '?…' : ''}${url.hash ? '#…' : ''}`;
    throw new TypeError(`baseUrl must carry no credentials, query or fragment, got ${JSON.stringify(shown)}`);
  }
  // The routes carry /v1 themselves: accept a base URL given with or without it (ApiUrl has it).
  return url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A URL as given, its `user:password@` (if any) replaced by `***@`, for a message that quotes it. */
function withoutUserinfo(text: string): string {
  return text.replace(/^([^:/?#]*:\/*)[^/?#]*@/, '$1***@');
}

/** The WHATWG parser has already normalised the host (`127.1`, `0x7f.0.0.1` → `127.0.0.1`; `[::1]`). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Attaches the answer's status, request id and headers as `lastResponse`, non-enumerable (as
 * Stripe's libraries do): JSON.stringify, spreads, Object.keys and console.log show the API's
 * record exactly, so it can be stored or forwarded as is, while `record.lastResponse.requestId`
 * is there to quote to support.
 */
function withResponse<T extends object>(record: T, response: ResponseInfo): WithResponse<T> {
  return Object.defineProperty(record, 'lastResponse', { value: response, enumerable: false, writable: false, configurable: true }) as WithResponse<T>;
}

/** Node's util.inspect (console.log) calls a function under this symbol; Symbol.for, so no import of node:util. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A created webhook's signing secret is shown once, in this record: console.log and util.inspect
 * print `secret: '[hidden]'` instead (as the other official clients do), so logging the record does
 * not leak it. `webhook.secret` reads it, and JSON.stringify, spreads and Object.keys still see the
 * API's record exactly (the inspector is non-enumerable, like lastResponse).
 */
function withHiddenSecret<T extends { secret?: unknown }>(record: T): T {
  const show = function (this: T, depth: number, options: { depth?: number | null; stylize(text: string, style: string): string }, inspect: (value: unknown, options: object) => string): string {
    if (depth < 0) return options.stylize('[Object]', 'special');
    return inspect({ ...this, secret: '[hidden]' }, { ...options, depth: options.depth == null ? options.depth : options.depth - 1 });
  };
  return Object.defineProperty(record, INSPECT, { value: show, enumerable: false, writable: false, configurable: true });
}

function segment(id: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError('id must be a non-empty string');
  return encodeURIComponent(id);
}

function parseJson(text: string): { success?: boolean; data?: unknown; pagination?: { nextCursor: string | null }; error?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as never) : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An error as the API writes it: `{ success: false, error: { code, message, details } }` with a 4xx or 5xx. */
function isErrorEnvelope(status: number, json: ReturnType<typeof parseJson>): boolean {
  return status >= 400 && json !== undefined && json.success !== true && typeof json.error === 'object' && json.error !== null && !Array.isArray(json.error);
}

/**
 * An answer that is not the API's envelope (text, or other JSON): what a CDN, WAF or proxy in front of the API
 * answers. Its status still says what happened when it is 429 (throttled: RateLimitError, retried) or 5xx
 * (ApiServerError, retried); any other status is `INVALID_RESPONSE`, not retried, as in every official client.
 */
function errorWithoutEnvelope(status: number, json: ReturnType<typeof parseJson>, requestId: string | undefined): CambioError {
  const shape = json === undefined ? 'without a JSON body' : "without the API's envelope";
  const where = requestId ? `, request ${requestId}` : '';
  if (status === 429) return new RateLimitError(`HTTP 429 ${shape} (RATE_LIMITED${where})`, { code: 'RATE_LIMITED', status, requestId });
  if (status >= 500) return new ApiServerError(`HTTP ${status} ${shape} (INTERNAL_ERROR${where})`, { code: 'INTERNAL_ERROR', status, requestId });
  return new CambioError(`HTTP ${status} ${shape} (INVALID_RESPONSE${where}): is baseUrl the API's URL? ${WHERE_THE_URL_IS}`, {
    code: 'INVALID_RESPONSE',
    status,
    requestId,
  });
}

/** Money is a decimal string, as the API takes it: a JS number (from a caller without TypeScript) would send a JSON
 * number, with a float's digits, which the API refuses; refused here, naming the field. Absent (undefined) is fine. */
function checkMoney(call: string, field: string, value: unknown): void {
  if (value === undefined || typeof value === 'string') return;
  const got = value === null ? 'null' : typeof value === 'number' || typeof value === 'bigint' ? `${typeof value} ${String(value)}` : typeof value;
  throw new TypeError(`${call}: ${field} must be a decimal string such as "25.50", got ${got}: money is never a JS number`);
}

/** The one mapping from an answer to its error family (errors.ts holds only the public classes). */
function errorFromResponse(status: number, body: unknown, requestId: string | undefined): CambioError {
  const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
  const code = (error?.code ?? (status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_RESPONSE')) as ErrorCode | ClientErrorCode;
  const message = `${error?.message ?? `HTTP ${status}`} (${code}${requestId ? `, request ${requestId}` : ''})`;
  const init = { code, status, requestId, details: error?.details };
  if (status === 401) return new AuthenticationError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 409) return new ConflictError(message, init);
  if (status === 422) return new RefusedError(message, init);
  if (status === 429) return new RateLimitError(message, init);
  if (status >= 500) return new ApiServerError(message, init);
  if (status >= 400) return new InvalidRequestError(message, init);
  return new CambioError(message, init);
}
