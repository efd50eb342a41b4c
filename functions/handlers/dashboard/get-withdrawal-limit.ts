import { withdrawalLimit } from '#functions/withdrawals/withdrawal-limit';
import { dashboardRoute } from '#http/dashboard-route';
import { limit, memberships } from './allowlist-deps.ts';

/** The limit in force, a pending raise or removal, and what was sent today; any role may read it. */
export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, log }) => ({
  data: await withdrawalLimit(limit(log), caller),
}));
