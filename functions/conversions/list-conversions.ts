import { conversionView, listConversions } from '#domain/conversions';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listConversionsQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('conversions/list-conversions');
const { db, tableName } = dynamoFrom(settings);
const conversions = new DynamoConversionStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, query }) => {
  const page = await listConversions(conversions, companyId, validate(listConversionsQuery, query));
  return { data: page.conversions.map(conversionView), pagination: { nextCursor: page.nextCursor } };
});
