import { createDeposit, depositView } from '#functions/deposits/deposits';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { functionSettings } from '#functions/settings/functions';
import { httpRoute } from '#http/route';
import { createDepositBody } from './schemas.ts';

const settings = functionSettings('deposits/create-deposit');
const { db, tableName } = dynamoFrom(settings);
const deposits = new DynamoDepositStore(db, tableName);
const idempotency = new DynamoIdempotencyStore(db, tableName);
const depositSettings = depositSettingsFrom(settings, { db, tableName });

// With an Idempotency-Key, the answer is written in the deposit's own transaction (idempotency-store.ts answerAlongside).
export const handler = httpRoute({ body: createDepositBody, idempotency }, async ({ companyId, body, idempotency: claimed }) => {
  const answer = idempotency.answerFor(claimed, 201, depositView);
  return { status: 201, data: depositView(await createDeposit(deposits, depositSettings, companyId, body, new Date(), answer)), answerStored: answer !== undefined };
});
