import { me } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';

const { dashboard } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'session' }, async ({ personId }) => ({ data: await me(dashboard, personId) }));
