import { revokeApiKey } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';

const { dashboard } = dynamoFromEnv();

export const handler = dashboardRoute({ body: emptyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, pathParameters }) => ({
  data: await revokeApiKey(dashboard, caller, pathParameters.keyId!),
}));
