import { changeApiKeyAllowedIps } from '#functions/api-keys/dashboard-api-keys';
import { dashboardRoute } from '#http/dashboard-route';
import { dashboard, keys } from './key-deps.ts';
import { changeAllowedIpsBody } from './schemas.ts';

/** `Edit allowed IPs`; Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: changeAllowedIpsBody, access: 'manageKeys', memberships: dashboard }, async ({ caller, body, pathParameters, log }) => ({
  data: await changeApiKeyAllowedIps(keys(log), caller, pathParameters.keyId!, body),
}));
