import { MAX_SPREAD_BPS, RateFormatError, type PriceSource } from '#domain/pricing';
import { optionalEnv, requireEnv } from '../env.ts';
import { HttpPriceSource } from './http-price-source.ts';
import { StaticPriceSource } from './static-price-source.ts';

export const PRICE_SOURCES = ['static', 'http'] as const;
export type PriceSourceKind = (typeof PRICE_SOURCES)[number];

export const DEFAULT_SPREAD_BPS = 50;

/**
 * The price source a Lambda uses, chosen at cold start. PRICE_SOURCE has no default on purpose:
 * a deployed stage that forgot it must fail loudly, not quote customers on a fixed sandbox rate.
 *   PRICE_SOURCE=static  STATIC_USDT_BRL_RATE=5.40000000
 *   PRICE_SOURCE=http    PRICE_SOURCE_URL=https://api.binance.com
 */
export function priceSourceFromEnv(): PriceSource {
  const kind = requireEnv('PRICE_SOURCE');
  switch (kind) {
    case 'static': {
      const rate = requireEnv('STATIC_USDT_BRL_RATE');
      try {
        return new StaticPriceSource(rate);
      } catch (error) {
        if (error instanceof RateFormatError) throw new Error(`STATIC_USDT_BRL_RATE is invalid: ${error.message}`, { cause: error });
        throw error;
      }
    }
    case 'http': {
      const url = requireEnv('PRICE_SOURCE_URL');
      if (!URL.canParse(url)) throw new Error(`PRICE_SOURCE_URL is not a URL: ${JSON.stringify(url)}`);
      return new HttpPriceSource({ url });
    }
    default:
      throw new Error(`PRICE_SOURCE must be one of ${PRICE_SOURCES.join(', ')}, got ${JSON.stringify(kind)}`);
  }
}

/** CONVERSION_SPREAD_BPS: integer basis points taken off the mid rate, default 50 (0.5 %). */
export function spreadBpsFromEnv(): number {
  const raw = optionalEnv('CONVERSION_SPREAD_BPS');
  if (raw === undefined) return DEFAULT_SPREAD_BPS;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > MAX_SPREAD_BPS) {
    throw new Error(`CONVERSION_SPREAD_BPS must be an integer from 0 to ${MAX_SPREAD_BPS}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
