import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#functions/shared/errors';
import { ERROR_STATUS } from '#http/error-status';
import { parseAmount } from '#functions/shared/money';
import {
  applySpread,
  formatRate,
  parseRate,
  PriceUnavailableError,
  QUOTE_VALIDITY_SECONDS,
  quoteTerms,
  RateFormatError,
  settlementAmount,
  type MidPrice,
  type PriceSource,
} from '#functions/conversions/pricing';
import { StaticPriceSource } from '#adapters/price/static-price-source';
import { HttpPriceSource } from '#adapters/price/http-price-source';
import { priceSourceFrom } from '#adapters/price/from-settings';
import { DEFAULT_SPREAD_BPS, parseSettings } from '#functions/settings/schema';
import { SLICES } from '#functions/settings/functions';

/** As create-quote does at cold start: its pricing slice, parsed from the environment. */
const priceSourceFromEnv = () => priceSourceFrom(parseSettings(SLICES.pricing, process.env));
const spreadBpsFromEnv = () => parseSettings(['CONVERSION_SPREAD_BPS'], process.env).CONVERSION_SPREAD_BPS;

const usdt = (s: string) => parseAmount(s, 'USDT');
const fixedSource = (price: Partial<MidPrice> & { rate: bigint }): PriceSource => ({
  midRate: async () => ({ source: 'test', asOf: new Date('2026-01-01T00:00:00.000Z'), ...price }),
});
const NOW = new Date('2026-01-01T00:00:00.000Z');

describe('parseRate / formatRate', () => {
  it('reads a decimal string into an integer at 8 decimals and writes it back with all 8', () => {
    expect(parseRate('5.412')).toBe(541_200_000n);
    expect(parseRate('5.41234567')).toBe(541_234_567n);
    expect(parseRate('0.00000001')).toBe(1n);
    expect(parseRate('5')).toBe(500_000_000n);
    expect(formatRate(541_200_000n)).toBe('5.41200000');
    expect(formatRate(1n)).toBe('0.00000001');
  });

  it.each(['5.41200000', '0.00000001', '123.45678901', '7'])('round-trips %s', (value) => {
    expect(parseRate(formatRate(parseRate(value)))).toBe(parseRate(value));
    expect(formatRate(parseRate(value))).toMatch(/^\d+\.\d{8}$/);
  });

  it.each([
    ['exponent', '1e3'],
    ['negative', '-5'],
    ['nine decimals', '5.123456789'],
    ['letters', 'abc'],
    ['empty', ''],
    ['zero', '0'],
    ['zero with decimals', '0.00000000'],
    ['leading plus', '+5'],
    ['trailing dot', '5.'],
    ['bare fraction', '.5'],
    ['spaces', ' 5.4'],
    ['comma decimal', '5,4'],
    ['Infinity', 'Infinity'],
  ])('rejects %s (%j)', (_, value) => {
    expect(() => parseRate(value)).toThrow(RateFormatError);
  });
});

describe('applySpread', () => {
  it('takes the basis points off the mid rate, rounding down in Cambio\'s favour', () => {
    // 5.41234567 × 0.995 = 5.38528394165 → 5.38528394
    expect(applySpread(541_234_567n, 50)).toBe(538_528_394n);
    // 0.00000001 × 0.9999 = 0.000000009999 → 0
    expect(applySpread(1n, 1)).toBe(0n);
    expect(applySpread(541_200_000n, 0)).toBe(541_200_000n);
    expect(applySpread(541_200_000n, 10_000)).toBe(0n);
  });

  it.each([-1, 10_001, 2.5, Number.NaN])('refuses a spread of %s bps', (bps) => {
    expect(() => applySpread(541_200_000n, bps)).toThrow(RangeError);
  });
});

describe('settlementAmount', () => {
  it('is sourceAmount × rate rounded down to the cent', () => {
    // 10 × 5.41234567 = 54.1234567 → 54.12
    expect(settlementAmount(usdt('10.000000'), parseRate('5.41234567'))).toBe(5_412n);
    // 1.999999 × 5 = 9.999995 → 9.99, not 10.00
    expect(settlementAmount(usdt('1.999999'), parseRate('5.0'))).toBe(999n);
    expect(settlementAmount(usdt('0.000001'), parseRate('5.41234567'))).toBe(0n);
  });

  it('stays exact far beyond what a float can hold', () => {
    // 999999999999.999999 × 99999.99999999 = 99999999999989999.90000000000001 → …989999.90
    expect(settlementAmount(usdt('999999999999.999999'), parseRate('99999.99999999'))).toBe(9_999_999_999_998_999_990n);
  });
});

describe('quoteTerms', () => {
  it('prices at mid less spread, settles down to the cent and expires exactly 30 s after now', async () => {
    const terms = await quoteTerms(fixedSource({ rate: parseRate('5.41234567') }), {
      sourceAmountMinor: usdt('10'),
      spreadBps: 50,
      now: NOW,
    });

    expect(terms).toEqual({
      rate: 538_528_394n,
      settlementAmountMinor: 5_385n, // 10 × 5.38528394 = 53.8528394
      expiresAt: new Date('2026-01-01T00:00:30.000Z'),
      rateSource: 'test',
    });
    expect(terms.expiresAt.getTime() - NOW.getTime()).toBe(QUOTE_VALIDITY_SECONDS * 1000);
  });

  it('refuses an amount that settles to less than 0.01 BRL with a validation error on sourceAmount', async () => {
    const attempt = quoteTerms(fixedSource({ rate: parseRate('5.41234567') }), { sourceAmountMinor: usdt('0.000001'), spreadBps: 0, now: NOW });

    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    await expect(attempt).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'sourceAmount', message: 'is too small to convert to at least 0.01 BRL' }],
    });
    // The status is the HTTP layer's (one table maps code to status): 400.
    expect(ERROR_STATUS[((await attempt.catch((error: unknown) => error)) as ApiError).code]).toBe(400);
  });

  it('refuses to quote on a price older than the maximum age', async () => {
    const source = fixedSource({ rate: parseRate('5.4'), asOf: new Date(NOW.getTime() - 60_001) });

    await expect(quoteTerms(source, { sourceAmountMinor: usdt('10'), spreadBps: 50, now: NOW })).rejects.toBeInstanceOf(PriceUnavailableError);
    await expect(
      quoteTerms(source, { sourceAmountMinor: usdt('10'), spreadBps: 50, now: NOW, maxPriceAgeMs: 120_000 }),
    ).resolves.toMatchObject({ settlementAmountMinor: 5_373n });
  });

  it('accepts a price exactly at the maximum age', async () => {
    const source = fixedSource({ rate: parseRate('5.4'), asOf: new Date(NOW.getTime() - 60_000) });

    await expect(quoteTerms(source, { sourceAmountMinor: usdt('10'), spreadBps: 0, now: NOW })).resolves.toMatchObject({ settlementAmountMinor: 5_400n });
  });

  it('turns any failure of the price source into PriceUnavailableError, keeping the cause', async () => {
    const boom = new Error('socket hang up');
    const failing: PriceSource = { midRate: async () => Promise.reject(boom) };

    const error = await quoteTerms(failing, { sourceAmountMinor: usdt('10'), spreadBps: 50, now: NOW }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PriceUnavailableError);
    expect((error as Error).cause).toBe(boom);
  });

  it('never quotes at a zero customer rate', async () => {
    await expect(
      quoteTerms(fixedSource({ rate: parseRate('5.4') }), { sourceAmountMinor: usdt('10'), spreadBps: 10_000, now: NOW }),
    ).rejects.toBeInstanceOf(PriceUnavailableError);
  });

  it('quotes on the static source for the sandbox', async () => {
    const terms = await quoteTerms(new StaticPriceSource('5.40000000'), { sourceAmountMinor: usdt('1.5'), spreadBps: 0, now: new Date() });

    expect(terms).toMatchObject({ rate: 540_000_000n, settlementAmountMinor: 810n, rateSource: 'static' });
  });
});

describe('price source from the environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('builds the static source from STATIC_USDT_BRL_RATE', async () => {
    vi.stubEnv('PRICE_SOURCE', 'static');
    vi.stubEnv('STATIC_USDT_BRL_RATE', '5.40000000');

    const source = priceSourceFromEnv();

    expect(source).toBeInstanceOf(StaticPriceSource);
    await expect(source.midRate('USDT/BRL')).resolves.toMatchObject({ rate: 540_000_000n, source: 'static' });
  });

  it('builds the http source from PRICE_SOURCE_URL', () => {
    vi.stubEnv('PRICE_SOURCE', 'http');
    vi.stubEnv('PRICE_SOURCE_URL', 'https://api.binance.com');

    expect(priceSourceFromEnv()).toBeInstanceOf(HttpPriceSource);
  });

  it.each([
    ['PRICE_SOURCE missing', {}, /PRICE_SOURCE/],
    ['an unknown PRICE_SOURCE', { PRICE_SOURCE: 'oracle' }, /PRICE_SOURCE must be one of static, http/],
    ['static without its rate', { PRICE_SOURCE: 'static' }, /STATIC_USDT_BRL_RATE/],
    ['static with a float-looking rate', { PRICE_SOURCE: 'static', STATIC_USDT_BRL_RATE: '5.4e0' }, /STATIC_USDT_BRL_RATE is invalid/],
    ['http without its URL', { PRICE_SOURCE: 'http' }, /PRICE_SOURCE_URL/],
    ['http with a URL that is not one', { PRICE_SOURCE: 'http', PRICE_SOURCE_URL: 'binance' }, /PRICE_SOURCE_URL is not a URL/],
  ] as const)('fails loudly on %s', (_, env, message) => {
    vi.stubEnv('PRICE_SOURCE', '');
    vi.stubEnv('STATIC_USDT_BRL_RATE', '');
    vi.stubEnv('PRICE_SOURCE_URL', '');
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);

    expect(() => priceSourceFromEnv()).toThrow(message);
  });

  it('reads CONVERSION_SPREAD_BPS, defaulting to 50', () => {
    vi.stubEnv('CONVERSION_SPREAD_BPS', '');
    expect(spreadBpsFromEnv()).toBe(DEFAULT_SPREAD_BPS);
    expect(DEFAULT_SPREAD_BPS).toBe(50);
    vi.stubEnv('CONVERSION_SPREAD_BPS', '125');
    expect(spreadBpsFromEnv()).toBe(125);
  });

  it.each(['-1', '1.5', '10001', 'abc', '0x10'])('refuses CONVERSION_SPREAD_BPS=%s', (value) => {
    vi.stubEnv('CONVERSION_SPREAD_BPS', value);

    expect(() => spreadBpsFromEnv()).toThrow(/CONVERSION_SPREAD_BPS/);
  });
});
