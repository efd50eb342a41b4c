import { conversionView, listConversions } from '#domain/conversions';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listConversionsQuery } from './schemas.ts';

const { conversions } = dynamoFromEnv();

export const handler = httpRoute({}, async ({ companyId, query }) => {
  const page = await listConversions(conversions, companyId, validate(listConversionsQuery, query));
  return { data: page.conversions.map(conversionView), pagination: { nextCursor: page.nextCursor } };
});
