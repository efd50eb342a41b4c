import { conversionView, executeConversion } from '#domain/conversions';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';
import { createConversionBody } from './schemas.ts';

const { conversions, idempotency } = dynamoFromEnv();

export const handler = httpRoute({ body: createConversionBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: conversionView(await executeConversion(conversions, companyId, body)),
}));
