import type { PriceSource } from '#functions/conversions/pricing';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { HttpPriceSource } from './http-price-source.ts';
import { StaticPriceSource } from './static-price-source.ts';

/**
 * The price source a Lambda uses, chosen at cold start (functions/settings/schema.ts PRICE_SOURCE,
 * which has no default on purpose):
 *   PRICE_SOURCE=static  STATIC_USDT_BRL_RATE=5.40000000
 *   PRICE_SOURCE=http    PRICE_SOURCE_URL=https://api.binance.com
 */
export function priceSourceFrom(settings: SliceSettings<'pricing'>): PriceSource {
  if (settings.PRICE_SOURCE === 'static') {
    const rate = needed(settings.STATIC_USDT_BRL_RATE, 'STATIC_USDT_BRL_RATE', 'PRICE_SOURCE=static');
    return new StaticPriceSource(rate);
  }
  return new HttpPriceSource({ url: needed(settings.PRICE_SOURCE_URL, 'PRICE_SOURCE_URL', 'PRICE_SOURCE=http') });
}
