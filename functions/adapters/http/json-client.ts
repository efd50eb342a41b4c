import { backoffDelay, checkRetryPolicy, parseRetryAfter, sleep, type RetryPolicy } from '#functions/shared/retry';

/**
 * JSON over HTTP with plain fetch, retried under one RetryPolicy: what TronGrid and the price
 * source share. Network errors, timeouts and the statuses the upstream names as worth another
 * attempt are retried; any other answer fails at once. Each adapter keeps its own errors (it
 * passes their factories) and reads the JSON it gets back with its own parsers.
 */

/** The request path (never a key, which travels in a header) and the last HTTP status. */
export interface UpstreamFailure {
  path: string;
  status?: number;
  attempts: number;
  cause?: unknown;
}

export interface JsonClientOptions {
  /** Names the upstream in error messages: `TronGrid POST /wallet/getnowblock unavailable…`. */
  name: string;
  /** A path prefix is kept; a trailing slash is dropped. */
  baseUrl: string;
  fetchImpl?: typeof fetch;
  /** Per attempt, headers and body included. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** An HTTP answer worth another attempt (429 and 5xx as a rule). */
  retryableStatus: (status: number) => boolean;
  /** A Retry-After beyond this fails the call now (a Lambda should not sleep for minutes);
   * undefined: Retry-After is not read, the policy alone decides the wait. */
  maxRetryAfterMs?: number;
  /** The upstream did not answer usefully within the attempts allowed: worth trying later. */
  unavailable: (message: string, failure: UpstreamFailure) => Error;
  /** Headers every attempt of one request carries (an API key), asked once per request with its path. */
  headers?: (path: string) => Promise<Record<string, string> | undefined>;
  /** A refusal inside a 2xx answer (java-tron's `{"Error": …}`), as text; undefined for a real answer. */
  refusalIn?: (body: unknown) => string | undefined;
  /** The upstream refused, or answered something that is not JSON: repeating would not help. */
  refused: (message: string, failure: Omit<UpstreamFailure, 'attempts'>) => Error;
}

export interface JsonRequest {
  query?: Record<string, string>;
  body?: unknown;
}

/** Worth another attempt: the upstream said so, or failed on its side. */
class RetryableStatus extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

export class JsonClient {
  private readonly options: JsonClientOptions;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(options: JsonClientOptions) {
    this.options = { ...options, retry: checkRetryPolicy(options.retry) };
    this.baseUrl = new URL(options.baseUrl).href.replace(/\/+$/, '');
    this.fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  }

  /** One logical request: attempts with backoff, then the `unavailable` error. Resolves to the parsed JSON body. */
  async request(method: 'GET' | 'POST', path: string, { query, body }: JsonRequest = {}): Promise<unknown> {
    const { name, retry, maxRetryAfterMs } = this.options;
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    const fullPath = url.pathname;
    const headers: Record<string, string> = { accept: 'application/json', ...(await this.options.headers?.(fullPath)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };

    const failures: unknown[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(url, init, fullPath);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        failures.push(error);
        const status = error instanceof RetryableStatus ? error.status : undefined;
        const retryAfterMs = error instanceof RetryableStatus && maxRetryAfterMs !== undefined ? error.retryAfterMs : undefined;
        const unavailable = (why: string) =>
          this.options.unavailable(`${name} ${method} ${fullPath} unavailable ${why}: ${reason(error)}`, {
            path: fullPath,
            status,
            attempts: attempt,
            cause: failures.length === 1 ? error : new AggregateError(failures, `${failures.length} attempts failed`),
          });
        if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs!) {
          throw unavailable(`(asked to retry after ${Math.ceil(retryAfterMs / 1000)} s)`);
        }
        if (attempt >= retry.maxAttempts) throw unavailable(`after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
        await sleep(Math.max(retryAfterMs ?? 0, backoffDelay(retry, attempt)));
      }
    }
  }

  private async attempt(url: URL, init: RequestInit, path: string): Promise<unknown> {
    const { name, timeoutMs, retryableStatus, refusalIn, refused } = this.options;
    const response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (retryableStatus(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      throw new RetryableStatus(response.status, parseRetryAfter(response.headers.get('retry-after')));
    }
    const text = await response.text();
    if (!response.ok) {
      throw refused(`${name} ${init.method} ${path} refused: HTTP ${response.status} ${excerpt(text)}`, { path, status: response.status });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw refused(`${name} ${init.method} ${path} answered a body that is not JSON: ${excerpt(text)}`, { path, status: response.status, cause });
    }
    const refusal = refusalIn?.(parsed);
    if (refusal !== undefined) throw refused(`${name} ${init.method} ${path} answered an error: ${refusal}`, { path, status: response.status });
    return parsed;
  }
}

/** Network errors and timeouts reject fetch itself; an HTTP answer is retried only when retryableStatus says so. */
function isRetryable(error: unknown): boolean {
  if (error instanceof RetryableStatus) return true;
  return error instanceof TypeError || (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'));
}

export function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function reason(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timed out';
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
