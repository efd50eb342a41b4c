import { changeApiKeyAllowedIps } from '#functions/api-keys/key-management';
import { dashboardRoute } from '#http/dashboard-route';
import { keys, memberships } from './key-deps.ts';
import { changeAllowedIpsBody } from './schemas.ts';

/** `Edit allowed IPs`; Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: changeAllowedIpsBody, access: 'manageKeys', memberships }, async ({ caller, body, pathParameters, log }) => ({
  data: await changeApiKeyAllowedIps(keys(log), caller, pathParameters.keyId!, body),
}));
