import { conversionView, listConversions } from '#functions/conversions/conversions';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { pageResult } from '#http/envelope';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listConversionsQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('conversions/list-conversions');
const { db, tableName } = dynamoFrom(settings);
const conversions = new DynamoConversionStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, query }) =>
  pageResult(await listConversions(conversions, companyId, validate(listConversionsQuery, query)), conversionView),
);
