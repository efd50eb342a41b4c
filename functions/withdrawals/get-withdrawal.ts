import { getWithdrawal, withdrawalView } from '#domain/withdrawals';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';

const { withdrawals } = dynamoFromEnv();

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: withdrawalView(await getWithdrawal(withdrawals, companyId, pathParameters.id ?? '')),
}));
