import { withdrawalAllowlist } from '#functions/withdrawals/withdrawal-allowlist';
import { dashboardRoute } from '#http/dashboard-route';
import { allowlist, memberships } from './allowlist-deps.ts';

/** The switch, the waiting period and every address; any role may read them. */
export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, log }) => ({
  data: await withdrawalAllowlist(allowlist(log), caller),
}));
