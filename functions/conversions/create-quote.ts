import { createQuote, quoteView } from '#domain/conversions';
import { dynamoFromEnv } from '#adapters/runtime';
import { priceSourceFromEnv, spreadBpsFromEnv } from '#adapters/price/from-env';
import { httpRoute } from '#http/route';
import { createQuoteBody } from './schemas.ts';

const { conversions, idempotency } = dynamoFromEnv();
const pricing = { priceSource: priceSourceFromEnv(), spreadBps: spreadBpsFromEnv() };

export const handler = httpRoute({ body: createQuoteBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: quoteView(await createQuote(conversions, pricing, companyId, body)),
}));
