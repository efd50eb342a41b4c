import { createQuote, quoteView } from '#domain/conversions';
import { ApiError } from '#domain/errors';
import { PriceUnavailableError } from '#domain/pricing';
import { dynamoFromEnv } from '#adapters/runtime';
import { priceSourceFromEnv, spreadBpsFromEnv } from '#adapters/price/from-env';
import { httpRoute } from '#http/route';
import { createQuoteBody } from './schemas.ts';

const { conversions, idempotency } = dynamoFromEnv();
const pricing = { priceSource: priceSourceFromEnv(), spreadBps: spreadBpsFromEnv() };

export const handler = httpRoute({ body: createQuoteBody, idempotency }, async ({ companyId, body, requestId }) => {
  try {
    return { status: 201, data: quoteView(await createQuote(conversions, pricing, companyId, body)) };
  } catch (error) {
    if (!(error instanceof PriceUnavailableError)) throw error;
    // Refuse rather than quote on a guess (pricing.ts); the upstream's failure is for the log only.
    console.warn(JSON.stringify({ level: 'warn', message: 'Price unavailable', requestId, error: error.message }));
    throw new ApiError('PRICE_UNAVAILABLE', 'No current USDT/BRL price is available; retry shortly');
  }
});
