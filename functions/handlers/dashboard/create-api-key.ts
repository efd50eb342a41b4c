import { createApiKey } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships, reauthentication } from './key-deps.ts';
import { createApiKeyBody } from './schemas.ts';

/** The only answer that ever holds the secret; Owners and Admins are mailed. A full-access key is
 * confirmed with the person's password (and code), a read-only one with a recent sign-in. */
export const handler = dashboardRoute({ body: createApiKeyBody, access: 'manageKeys', memberships }, async ({ caller, body: { password, code, ...key }, log, requireRecentSignIn }) => ({
  status: 201,
  data: await createApiKey(keys(log), caller, key, { reauthentication, proof: { password, code }, requireRecentSignIn }),
}));
