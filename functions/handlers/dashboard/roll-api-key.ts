import { rollApiKey } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships, reauthentication } from './key-deps.ts';
import { rollApiKeyBody } from './schemas.ts';

/** A new secret, shown once; Owners and Admins are mailed. Confirmed as the key's issue was (create-api-key.ts). */
export const handler = dashboardRoute({ body: rollApiKeyBody, access: 'manageKeys', memberships }, async ({ caller, body, pathParameters, log, requireRecentSignIn }) => ({
  data: await rollApiKey(keys(log), caller, pathParameters.keyId!, body.oldSecretValidFor, { reauthentication, proof: { password: body.password, code: body.code }, requireRecentSignIn }),
}));
