import { conversionView, getConversion } from '#domain/conversions';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';

const { conversions } = dynamoFromEnv();

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: conversionView(await getConversion(conversions, companyId, pathParameters.id ?? '')),
}));
