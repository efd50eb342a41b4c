import { requestWithdrawal, withdrawalView } from '#functions/withdrawals/withdrawals';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { withdrawalRulesFrom } from '#adapters/config';
import { httpRoute } from '#http/route';
import { createWithdrawalBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('withdrawals/create-withdrawal');
const { db, tableName } = dynamoFrom(settings);
const withdrawals = new DynamoWithdrawalStore(db, tableName);
const idempotency = new DynamoIdempotencyStore(db, tableName);
const rules = withdrawalRulesFrom(settings);

// With an Idempotency-Key, the answer is written in the withdrawal's own transaction (idempotency-store.ts answerAlongside).
export const handler = httpRoute({ body: createWithdrawalBody, idempotency }, async ({ companyId, body, idempotency: claimed }) => {
  const answer = idempotency.answerFor(claimed, 201, withdrawalView);
  return { status: 201, data: withdrawalView(await requestWithdrawal(withdrawals, rules, companyId, body, new Date(), { answer })), answerStored: answer !== undefined };
});
