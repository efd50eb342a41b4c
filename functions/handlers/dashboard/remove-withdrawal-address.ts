import { removeAllowedAddress } from '#functions/withdrawals/withdrawal-allowlist';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { allowlist, memberships } from './allowlist-deps.ts';
import { removeWithdrawalAddressQuery } from './schemas.ts';

/** `Remove` (`?network=`): at once; a withdrawal to it in flight is stopped by its own transaction's check. */
export const handler = dashboardRoute({ access: 'manageAddresses', memberships }, async ({ caller, pathParameters, query, log }) => {
  const { network } = validate(removeWithdrawalAddressQuery, query);
  await removeAllowedAddress(allowlist(log), caller, { network: network ?? null, address: pathParameters.address! });
  return { data: { removed: true } };
});
