import { listApiKeys } from '#functions/api-keys/dashboard-api-keys';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/list-api-keys');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller }) => ({ data: await listApiKeys(dashboard, caller) }));
