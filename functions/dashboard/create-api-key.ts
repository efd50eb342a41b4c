import { createApiKey } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { createApiKeyBody } from './schemas.ts';

const { dashboard } = dynamoFromEnv();

/** The only answer that ever holds the secret. */
export const handler = dashboardRoute({ body: createApiKeyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body }) => ({
  status: 201,
  data: await createApiKey(dashboard, caller, body),
}));
