import { createQuote, quoteView } from '#functions/conversions/conversions';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { priceSourceFrom } from '#adapters/price/from-settings';
import { httpRoute } from '#http/route';
import { createQuoteBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('conversions/create-quote');
const { db, tableName } = dynamoFrom(settings);
const conversions = new DynamoConversionStore(db, tableName);
const idempotency = new DynamoIdempotencyStore(db, tableName);
const pricing = { priceSource: priceSourceFrom(settings), spreadBps: settings.CONVERSION_SPREAD_BPS };

export const handler = httpRoute({ body: createQuoteBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: quoteView(await createQuote(conversions, pricing, companyId, body)),
}));
