import { revokeApiKey } from '#functions/api-keys/dashboard-api-keys';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/revoke-api-key');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

export const handler = dashboardRoute({ body: emptyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, pathParameters }) => ({
  data: await revokeApiKey(dashboard, caller, pathParameters.keyId!),
}));
