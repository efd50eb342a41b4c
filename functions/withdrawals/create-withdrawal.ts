import { requestWithdrawal, withdrawalView } from '#domain/withdrawals';
import { dynamoFromEnv } from '#adapters/runtime';
import { withdrawalRulesFromEnv } from '#adapters/config';
import { httpRoute } from '#http/route';
import { createWithdrawalBody } from './schemas.ts';

const { withdrawals, idempotency } = dynamoFromEnv();
const rules = withdrawalRulesFromEnv();

export const handler = httpRoute({ body: createWithdrawalBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: withdrawalView(await requestWithdrawal(withdrawals, rules, companyId, body)),
}));
