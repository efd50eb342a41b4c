import { listApiKeys } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';

const { dashboard } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller }) => ({ data: await listApiKeys(dashboard, caller) }));
