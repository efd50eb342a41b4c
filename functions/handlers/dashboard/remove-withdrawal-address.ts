import { removeAllowedAddress } from '#functions/withdrawals/withdrawal-allowlist';
import { dashboardRoute } from '#http/dashboard-route';
import { allowlist, memberships } from './allowlist-deps.ts';

/** `Remove`: at once; a withdrawal to it in flight is stopped by its own transaction's check. */
export const handler = dashboardRoute({ access: 'manageAddresses', memberships }, async ({ caller, pathParameters, log }) => {
  await removeAllowedAddress(allowlist(log), caller, pathParameters.address!);
  return { data: { removed: true } };
});
