import { depositView, getDeposit } from '#functions/deposits/deposits';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { httpRoute } from '#http/route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('deposits/get-deposit');
const { db, tableName } = dynamoFrom(settings);
const deposits = new DynamoDepositStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: depositView(await getDeposit(deposits, companyId, pathParameters.id ?? '')),
}));
