import { parseRate, PriceUnavailableError, type MidPrice, type Pair, type PriceSource } from '#domain/pricing';

export interface HttpPriceSourceOptions {
  /** Base URL of a Binance-style API, e.g. https://api.binance.com */
  url: string;
  fetchImpl?: typeof fetch;
  /** Per attempt, headers and body included. */
  timeoutMs?: number;
  /** A good answer is reused this long, so a burst of quotes makes one upstream call. */
  cacheTtlMs?: number;
  /** Base delay before the single retry; jittered by up to +50 %. */
  retryDelayMs?: number;
  /** Names the source in quotes and logs; defaults to the URL's host. */
  sourceName?: string;
}

const SYMBOL: Record<Pair, string> = { 'USDT/BRL': 'USDTBRL' };

/** Worth a second try: the upstream said so (429) or failed on its side (5xx). */
class RetryableStatus extends Error {}

/**
 * Reads the mid price from a Binance-style ticker:
 * GET {url}/api/v3/ticker/price?symbol=USDTBRL → {"symbol":"USDTBRL","price":"5.41200000"}.
 * Every failure ends as PriceUnavailableError with the cause attached.
 */
export class HttpPriceSource implements PriceSource {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly cacheTtlMs: number;
  private readonly retryDelayMs: number;
  private readonly sourceName: string;
  private readonly cache = new Map<Pair, { price: MidPrice; fetchedAtMs: number }>();
  private readonly inFlight = new Map<Pair, Promise<MidPrice>>();

  constructor({ url, fetchImpl, timeoutMs = 2_000, cacheTtlMs = 2_000, retryDelayMs = 100, sourceName }: HttpPriceSourceOptions) {
    const parsed = new URL(url);
    this.baseUrl = parsed.href.replace(/\/+$/, '');
    this.fetchImpl = fetchImpl ?? ((input, init) => fetch(input, init));
    this.timeoutMs = timeoutMs;
    this.cacheTtlMs = cacheTtlMs;
    this.retryDelayMs = retryDelayMs;
    this.sourceName = sourceName ?? parsed.host;
  }

  async midRate(pair: Pair): Promise<MidPrice> {
    const cached = this.cache.get(pair);
    if (cached && Date.now() - cached.fetchedAtMs < this.cacheTtlMs) return cached.price;

    // Concurrent callers share the one request already under way.
    const pending = this.inFlight.get(pair);
    if (pending) return pending;
    const request = this.fetchWithRetry(pair).finally(() => this.inFlight.delete(pair));
    this.inFlight.set(pair, request);
    return request;
  }

  private async fetchWithRetry(pair: Pair): Promise<MidPrice> {
    let first: unknown;
    try {
      return await this.fetchOnce(pair);
    } catch (error) {
      if (!isRetryable(error)) throw unavailable(pair, error);
      first = error;
    }
    await sleep(this.retryDelayMs * (1 + Math.random() / 2));
    try {
      return await this.fetchOnce(pair);
    } catch (error) {
      const last = error instanceof Error ? error.message : String(error);
      throw unavailable(pair, new AggregateError([first, error], `both attempts failed, the last with: ${last}`));
    }
  }

  private async fetchOnce(pair: Pair): Promise<MidPrice> {
    const symbol = SYMBOL[pair];
    const response = await this.fetchImpl(`${this.baseUrl}/api/v3/ticker/price?symbol=${symbol}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const message = `ticker answered HTTP ${response.status}`;
      if (response.status === 429 || response.status >= 500) throw new RetryableStatus(message);
      throw new Error(message);
    }
    const price = parseTicker(await response.text(), symbol);
    const fetchedAtMs = Date.now();
    const result: MidPrice = { rate: price, source: this.sourceName, asOf: new Date(fetchedAtMs) };
    this.cache.set(pair, { price: result, fetchedAtMs });
    return result;
  }
}

/**
 * JSON.parse would turn `"price": 5.412` into a float, so only a string price is accepted; its
 * digits go straight to bigint.
 */
function parseTicker(text: string, symbol: string): bigint {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Error('ticker body is not JSON', { cause: error });
  }
  if (typeof body !== 'object' || body === null) throw new Error('ticker body is not an object');
  const ticker = body as Record<string, unknown>;
  if (ticker.symbol !== symbol) throw new Error(`ticker symbol is ${JSON.stringify(ticker.symbol)}, expected ${symbol}`);
  if (typeof ticker.price !== 'string') throw new Error(`ticker price must be a decimal string, got ${typeof ticker.price}`);
  return parseRate(ticker.price);
}

/** Network errors and timeouts reject fetch itself; an HTTP answer is retried only for 429 and 5xx. */
function isRetryable(error: unknown): boolean {
  if (error instanceof RetryableStatus) return true;
  return error instanceof TypeError || (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'));
}

function unavailable(pair: Pair, cause: unknown): PriceUnavailableError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PriceUnavailableError(`${pair} price unavailable: ${reason}`, { cause });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
