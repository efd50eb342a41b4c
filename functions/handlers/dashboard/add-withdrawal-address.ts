import { addAllowedAddress } from '#functions/withdrawals/withdrawal-allowlist';
import { dashboardRoute } from '#http/dashboard-route';
import { allowlist, memberships } from './allowlist-deps.ts';
import { addWithdrawalAddressBody } from './schemas.ts';

/** `Add address`: usable once the stage's waiting period has passed; Owners and Admins are mailed. */
export const handler = dashboardRoute({ body: addWithdrawalAddressBody, access: 'manageAddresses', memberships }, async ({ caller, body, log }) => ({
  status: 201,
  data: await addAllowedAddress(allowlist(log), caller, body),
}));
