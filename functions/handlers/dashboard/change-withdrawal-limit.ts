import { changeWithdrawalLimit } from '#functions/withdrawals/withdrawal-limit';
import { dashboardRoute } from '#http/dashboard-route';
import { limit, memberships } from './allowlist-deps.ts';
import { changeWithdrawalLimitBody } from './schemas.ts';

/** `Save limit` / `Remove limit`: lower at once, higher or none after the waiting period. */
export const handler = dashboardRoute({ body: changeWithdrawalLimitBody, access: 'manageAddresses', memberships }, async ({ caller, body, log }) => ({
  data: await changeWithdrawalLimit(limit(log), caller, body),
}));
