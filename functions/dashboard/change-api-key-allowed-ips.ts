import { changeApiKeyAllowedIps } from '#domain/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { changeAllowedIpsBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/change-api-key-allowed-ips');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

export const handler = dashboardRoute({ body: changeAllowedIpsBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body, pathParameters }) => ({
  data: await changeApiKeyAllowedIps(dashboard, caller, pathParameters.keyId!, body),
}));
