import { revokeApiKey } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships } from './key-deps.ts';
import { emptyBody } from './schemas.ts';

/** The key is refused from now on (within the authorizer's cache, a minute); Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: emptyBody, access: 'manageKeys', memberships }, async ({ caller, pathParameters, log }) => ({
  data: await revokeApiKey(keys(log), caller, pathParameters.keyId!),
}));
