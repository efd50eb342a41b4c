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

/** A book whose best bid and ask lie further apart than this (1 %; USDT/BRL's is usually some
 * hundredths of one) is too thin to price a quote from: a halted or emptied market, whose last
 * trade could be minutes old. */
export const MAX_BOOK_SPREAD_BPS = 100n;

/**
 * Reads the mid price from a Binance-style order book ticker, halfway between the best bid and ask
 * as they stand (not the last trade, which in a quiet market can be old and on either side):
 * GET {url}/api/v3/ticker/bookTicker?symbol=USDTBRL →
 * {"symbol":"USDTBRL","bidPrice":"5.41100000","bidQty":"…","askPrice":"5.41300000","askQty":"…"}.
 * A crossed book, or one wider than MAX_BOOK_SPREAD_BPS, is no price. Every failure ends as
 * PriceUnavailableError with the cause attached.
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
    const body = await this.http.request('GET', '/api/v3/ticker/bookTicker', { query: { symbol } });
    let price: bigint;
    try {
      price = midOf(body, symbol);
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
 * The book's mid, rounded down to the rate's 8 decimals. JSON.parse would turn `"bidPrice": 5.411`
 * into a float, so only string prices are accepted; their digits go straight to bigint.
 */
function midOf(body: unknown, symbol: string): bigint {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('ticker body is not an object');
  const ticker = body as Record<string, unknown>;
  if (ticker.symbol !== symbol) throw new Error(`ticker symbol is ${JSON.stringify(ticker.symbol)}, expected ${symbol}`);
  const [bid, ask] = (['bidPrice', 'askPrice'] as const).map((side) => {
    const price = ticker[side];
    if (typeof price !== 'string') throw new Error(`ticker ${side} must be a decimal string, got ${price === null ? 'null' : typeof price}`);
    return parseRate(price);
  }) as [bigint, bigint];
  if (ask < bid) throw new Error(`the book is crossed: bid ${ticker.bidPrice} above ask ${ticker.askPrice}`);
  const mid = (bid + ask) / 2n;
  if ((ask - bid) * 10_000n > MAX_BOOK_SPREAD_BPS * mid) throw new Error(`the book is too thin to price: bid ${ticker.bidPrice}, ask ${ticker.askPrice}, over ${MAX_BOOK_SPREAD_BPS} bps apart`);
  return mid;
}
