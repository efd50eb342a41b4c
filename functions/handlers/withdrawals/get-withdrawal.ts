import { getWithdrawal, withdrawalView } from '#functions/withdrawals/withdrawals';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { httpRoute } from '#http/route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('withdrawals/get-withdrawal');
const { db, tableName } = dynamoFrom(settings);
const withdrawals = new DynamoWithdrawalStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: withdrawalView(await getWithdrawal(withdrawals, companyId, pathParameters.id ?? '')),
}));
