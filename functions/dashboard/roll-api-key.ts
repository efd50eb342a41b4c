import { rollApiKey } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { rollApiKeyBody } from './schemas.ts';

const { dashboard } = dynamoFromEnv();

export const handler = dashboardRoute({ body: rollApiKeyBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body, pathParameters }) => ({
  data: await rollApiKey(dashboard, caller, pathParameters.keyId!, body.oldSecretValidFor),
}));
