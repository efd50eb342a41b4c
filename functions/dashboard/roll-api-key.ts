import { rollApiKey } from '#domain/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { rollApiKeyBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/roll-api-key');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

export const handler = dashboardRoute({ body: rollApiKeyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body, pathParameters }) => ({
  data: await rollApiKey(dashboard, caller, pathParameters.keyId!, body.oldSecretValidFor),
}));
