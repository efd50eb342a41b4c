import { depositView, getDeposit } from '#domain/deposits';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';

const { deposits } = dynamoFromEnv();

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: depositView(await getDeposit(deposits, companyId, pathParameters.id ?? '')),
}));
