import { conversionView, executeConversion } from '#functions/conversions/conversions';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { httpRoute } from '#http/route';
import { createConversionBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('conversions/create-conversion');
const { db, tableName } = dynamoFrom(settings);
const conversions = new DynamoConversionStore(db, tableName);
const idempotency = new DynamoIdempotencyStore(db, tableName);

// With an Idempotency-Key, the answer is written in the conversion's own transaction (idempotency-store.ts answerAlongside).
export const handler = httpRoute({ body: createConversionBody, idempotency }, async ({ companyId, body, idempotency: claimed }) => {
  const answer = idempotency.answerFor(claimed, 201, conversionView);
  return { status: 201, data: conversionView(await executeConversion(conversions, companyId, body, new Date(), answer)), answerStored: answer !== undefined };
});
