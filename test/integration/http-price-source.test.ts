import { describe, expect, it } from 'vitest';
import { PriceUnavailableError } from '#functions/conversions/pricing';
import { HttpPriceSource, type HttpPriceSourceOptions } from '#adapters/price/http-price-source';
import { useScriptedServer, type ScriptedReply } from '../support/scripted-server.ts';

/**
 * A real ticker server on loopback replaying scripted answers, one per request, so retries,
 * timeouts and the cache are proven over a socket rather than against a fetch mock.
 */

const server = useScriptedServer();
/** What the price source asked for: path and query, in order. */
const requests = () => server.requests.map((request) => request.url);

/** The book ticker's answer: its best bid and ask (the same price on both sides unless told). */
const ticker = (bidPrice: unknown, { askPrice = bidPrice, symbol = 'USDTBRL' }: { askPrice?: unknown; symbol?: string } = {}): ScriptedReply => ({
  body: JSON.stringify({ symbol, bidPrice, bidQty: '250000.00000000', askPrice, askQty: '180000.00000000' }),
});
const source = (options: Partial<HttpPriceSourceOptions> = {}) =>
  new HttpPriceSource({ url: server.baseUrl, timeoutMs: 500, retryDelayMs: 10, cacheTtlMs: 0, ...options });

describe('HttpPriceSource', () => {
  it("reads the mid of the USDTBRL book's best bid and ask as an exact rate", async () => {
    server.script = [ticker('5.41100000', { askPrice: '5.41300000' })];
    const before = Date.now();

    const mid = await source({ sourceName: 'binance' }).midRate('USDT/BRL');

    expect(mid.rate).toBe(541_200_000n);
    expect(mid.source).toBe('binance');
    expect(mid.asOf.getTime()).toBeGreaterThanOrEqual(before);
    expect(requests()).toEqual(['/api/v3/ticker/bookTicker?symbol=USDTBRL']);
  });

  it('rounds a mid between two adjacent prices down to the rate\'s 8 decimals', async () => {
    server.script = [ticker('5.41200000', { askPrice: '5.41200001' })];

    expect((await source().midRate('USDT/BRL')).rate).toBe(541_200_000n);
  });

  it.each([
    ['crossed (the bid above the ask)', ticker('5.42', { askPrice: '5.41' }), /crossed/],
    ['over 1 % wide (a halted or emptied market)', ticker('5.30', { askPrice: '5.40' }), /too thin to price: bid 5.30, ask 5.40/],
  ] as const)('refuses a book %s: no price, without retrying', async (_, reply, message) => {
    server.script = [reply, ticker('5.4')];

    const error = await source().midRate('USDT/BRL').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect((error as Error).message).toMatch(message);
    expect(requests()).toHaveLength(1);
  });

  it('prices a book just under 1 % wide', async () => {
    // 5.00 and 5.05: mid 5.025, spread 0.05 = 99.5 bps of it.
    server.script = [ticker('5.00', { askPrice: '5.05' })];

    expect((await source().midRate('USDT/BRL')).rate).toBe(502_500_000n);
  });

  it('keeps a path prefix in the base URL and tolerates a trailing slash', async () => {
    server.script = [ticker('5.4')];

    await source({ url: `${server.baseUrl}/proxy/` }).midRate('USDT/BRL');

    expect(requests()).toEqual(['/proxy/api/v3/ticker/bookTicker?symbol=USDTBRL']);
  });

  it('retries once after a 500 and succeeds', async () => {
    server.script = [{ status: 500, body: '{"code":-1000}' }, ticker('5.41234567')];

    const mid = await source().midRate('USDT/BRL');

    expect(mid.rate).toBe(541_234_567n);
    expect(requests()).toHaveLength(2);
  });

  it('gives up with PriceUnavailableError after 429 twice', async () => {
    server.script = [
      { status: 429, body: '{"code":-1003}' },
      { status: 429, body: '{"code":-1003}' },
      ticker('5.4'),
    ];

    const error = await source().midRate('USDT/BRL').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect((error as Error).message).toMatch(/429/);
    expect((error as Error).cause).toBeInstanceOf(AggregateError);
    expect(requests()).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    server.script = [{ status: 400, body: '{"code":-1121,"msg":"Invalid symbol."}' }, ticker('5.4')];

    await expect(source().midRate('USDT/BRL')).rejects.toBeInstanceOf(PriceUnavailableError);
    expect(requests()).toHaveLength(1);
  });

  it('fails with PriceUnavailableError when the ticker answers slower than the timeout', async () => {
    server.script = [
      { ...ticker('5.4'), delayMs: 400 },
      { ...ticker('5.4'), delayMs: 400 },
    ];
    const started = Date.now();

    const error = await source({ timeoutMs: 100 }).midRate('USDT/BRL').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect(Date.now() - started).toBeLessThan(390);
    expect(requests()).toHaveLength(2);
  });

  it('refuses a price given as a JSON number, which JSON.parse would make a float', async () => {
    server.script = [{ body: '{"symbol":"USDTBRL","bidPrice":5.41100000,"askPrice":"5.41300000"}' }, ticker('5.412')];

    const error = await source().midRate('USDT/BRL').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect((error as Error).message).toMatch(/bidPrice must be a decimal string, got number/);
    expect(requests()).toHaveLength(1);
  });

  it('refuses a ticker for another symbol', async () => {
    server.script = [ticker('5.4', { symbol: 'USDTARS' })];

    const error = await source().midRate('USDT/BRL').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect((error as Error).message).toMatch(/symbol/);
    expect(requests()).toHaveLength(1);
  });

  it.each([
    ['zero', ticker('0.00000000')],
    ['negative', ticker('-5.4')],
    ['exponent', ticker('5.4e0')],
    ['garbage', ticker('abc')],
    ['null', ticker(null)],
    ['missing ask', { body: '{"symbol":"USDTBRL","bidPrice":"5.4","bidQty":"1.0"}' }],
    ['not JSON', { body: '<html>maintenance</html>' }],
    ['an array', { body: '[]' }],
  ] as const)('refuses a %s price without retrying', async (_, reply) => {
    server.script = [reply, ticker('5.4')];

    await expect(source().midRate('USDT/BRL')).rejects.toBeInstanceOf(PriceUnavailableError);
    expect(requests()).toHaveLength(1);
  });

  it('answers two calls within the cache TTL with one upstream request', async () => {
    server.script = [ticker('5.412'), ticker('9.99')];
    const cached = source({ cacheTtlMs: 5_000 });

    const first = await cached.midRate('USDT/BRL');
    const second = await cached.midRate('USDT/BRL');

    expect(second).toEqual(first);
    expect(second.rate).toBe(541_200_000n);
    expect(requests()).toHaveLength(1);
  });

  it('coalesces concurrent calls on one instance into one upstream request', async () => {
    server.script = [{ ...ticker('5.412'), delayMs: 50 }, ticker('9.99')];
    const shared = source({ cacheTtlMs: 5_000 });

    const results = await Promise.all(Array.from({ length: 10 }, () => shared.midRate('USDT/BRL')));

    expect(new Set(results.map((r) => r.rate))).toEqual(new Set([541_200_000n]));
    expect(requests()).toHaveLength(1);
  });

  it('asks upstream again once the TTL has passed, and never caches a failure', async () => {
    server.script = [ticker('5.412'), { status: 503, body: '' }, { status: 503, body: '' }, ticker('5.5')];
    const cached = source({ cacheTtlMs: 30 });

    await expect(cached.midRate('USDT/BRL')).resolves.toMatchObject({ rate: 541_200_000n });
    await new Promise((resolve) => setTimeout(resolve, 40));
    await expect(cached.midRate('USDT/BRL')).rejects.toBeInstanceOf(PriceUnavailableError);
    await expect(cached.midRate('USDT/BRL')).resolves.toMatchObject({ rate: 550_000_000n });
    expect(requests()).toHaveLength(4);
  });
});
