import { parseRate, PriceUnavailableError, type MidPrice, type Pair, type PriceSource } from '#functions/conversions/pricing';
import { JsonClient } from '#adapters/http/json-client';

export interface HttpPriceSourceOptions {
  /** Base URL of a Binance-style API, e.g. https://api.binance.com */
  url: string;
  fetchImpl?: typeof fetch;
  /** Per attempt, headers and body included. */
  timeoutMs?: number;
  /** A good answer is reused this long, so a burst of quotes makes one upstream call. */
  cacheTtlMs?: number;
  /** The single retry waits between half and all of this. */
  retryDelayMs?: number;
  /** Names the source in quotes and logs; defaults to the URL's host. */
  sourceName?: string;
}

const SYMBOL: Record<Pair, string> = { 'USDT/BRL': 'USDTBRL' };

/**
 * Reads the mid price from a Binance-style ticker:
 * GET {url}/api/v3/ticker/price?symbol=USDTBRL → {"symbol":"USDTBRL","price":"5.41200000"}.
 * Every failure ends as PriceUnavailableError with the cause attached.
 */
export class HttpPriceSource implements PriceSource {
  private readonly http: JsonClient;
  private readonly cacheTtlMs: number;
  private readonly sourceName: string;
  private readonly cache = new Map<Pair, { price: MidPrice; fetchedAtMs: number }>();
  private readonly inFlight = new Map<Pair, Promise<MidPrice>>();

  constructor({ url, fetchImpl, timeoutMs = 2_000, cacheTtlMs = 2_000, retryDelayMs = 150, sourceName }: HttpPriceSourceOptions) {
    this.http = new JsonClient({
      name: 'ticker',
      baseUrl: url,
      fetchImpl,
      timeoutMs,
      // A quote waits on this: one quick retry, and Retry-After is not worth waiting for.
      retry: { maxAttempts: 2, baseDelayMs: retryDelayMs, maxDelayMs: retryDelayMs },
      retryableStatus: (status) => status === 429 || status >= 500,
      unavailable: (message, { cause }) => new PriceUnavailableError(message, { cause }),
      refused: (message, { cause }) => new PriceUnavailableError(message, { cause }),
    });
    this.cacheTtlMs = cacheTtlMs;
    this.sourceName = sourceName ?? new URL(url).host;
  }

  async midRate(pair: Pair): Promise<MidPrice> {
    const cached = this.cache.get(pair);
    if (cached && Date.now() - cached.fetchedAtMs < this.cacheTtlMs) return cached.price;

    // Concurrent callers share the one request already under way.
    const pending = this.inFlight.get(pair);
    if (pending) return pending;
    const request = this.fetchPrice(pair).finally(() => this.inFlight.delete(pair));
    this.inFlight.set(pair, request);
    return request;
  }

  private async fetchPrice(pair: Pair): Promise<MidPrice> {
    const symbol = SYMBOL[pair];
    const body = await this.http.request('GET', '/api/v3/ticker/price', { query: { symbol } });
    let price: bigint;
    try {
      price = parseTicker(body, symbol);
    } catch (error) {
      throw new PriceUnavailableError(`${pair} price unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
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
function parseTicker(body: unknown, symbol: string): bigint {
  if (typeof body !== 'object' || body === null) throw new Error('ticker body is not an object');
  const ticker = body as Record<string, unknown>;
  if (ticker.symbol !== symbol) throw new Error(`ticker symbol is ${JSON.stringify(ticker.symbol)}, expected ${symbol}`);
  if (typeof ticker.price !== 'string') throw new Error(`ticker price must be a decimal string, got ${typeof ticker.price}`);
  return parseRate(ticker.price);
}
