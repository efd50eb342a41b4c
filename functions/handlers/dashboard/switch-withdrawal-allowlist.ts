import { switchAllowlist } from '#functions/withdrawals/withdrawal-allowlist';
import { dashboardRoute } from '#http/dashboard-route';
import { allowlist, memberships } from './allowlist-deps.ts';
import { switchWithdrawalAllowlistBody } from './schemas.ts';

/** `Turn on allowlist` at once; `Turn off allowlist` after the waiting period. */
export const handler = dashboardRoute({ body: switchWithdrawalAllowlistBody, access: 'manageAddresses', memberships }, async ({ caller, body, log }) => ({
  data: await switchAllowlist(allowlist(log), caller, body),
}));
