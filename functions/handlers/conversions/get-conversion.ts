import { conversionView, getConversion } from '#functions/conversions/conversions';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { httpRoute } from '#http/route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('conversions/get-conversion');
const { db, tableName } = dynamoFrom(settings);
const conversions = new DynamoConversionStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: conversionView(await getConversion(conversions, companyId, pathParameters.id ?? '')),
}));
