import { createApiKey } from '#domain/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { createApiKeyBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/create-api-key');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

/** The only answer that ever holds the secret. */
export const handler = dashboardRoute({ body: createApiKeyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body }) => ({
  status: 201,
  data: await createApiKey(dashboard, caller, body),
}));
