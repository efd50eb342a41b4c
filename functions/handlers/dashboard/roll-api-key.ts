import { rollApiKey } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships } from './key-deps.ts';
import { rollApiKeyBody } from './schemas.ts';

/** A new secret, shown once; Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: rollApiKeyBody, access: 'manageKeys', memberships }, async ({ caller, body, pathParameters, log }) => ({
  data: await rollApiKey(keys(log), caller, pathParameters.keyId!, body.oldSecretValidFor),
}));
