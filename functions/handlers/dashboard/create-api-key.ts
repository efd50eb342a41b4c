import { createApiKey } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships } from './key-deps.ts';
import { createApiKeyBody } from './schemas.ts';

/** The only answer that ever holds the secret; Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: createApiKeyBody, access: 'manageKeys', memberships }, async ({ caller, body, log }) => ({
  status: 201,
  data: await createApiKey(keys(log), caller, body),
}));
