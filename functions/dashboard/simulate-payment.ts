import { simulatePayment } from '#domain/activity';
import { sandboxPayerFromEnv } from '#adapters/chain/from-env';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { simulatePaymentBody } from './schemas.ts';

const { db, tableName, dashboard, activity } = dynamoFromEnv();
const payer = sandboxPayerFromEnv(db, tableName);

export const handler = dashboardRoute({ body: simulatePaymentBody, access: 'simulate', memberships: dashboard }, async ({ caller, body, pathParameters }) => ({
  status: 202,
  data: await simulatePayment(activity, dashboard, payer, caller, pathParameters.depositId!, body.amount),
}));
