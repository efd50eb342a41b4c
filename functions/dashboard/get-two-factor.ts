import { userPoolFromEnv } from '#adapters/cognito/from-env';
import { SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';

const { identity } = userPoolFromEnv();

/** Whether the signed-in person has two-factor sign-in on (Account). */
export const handler = dashboardRoute({ access: 'session' }, async ({ cookies }) => ({
  data: { enabled: (await identity.status(cookies[SESSION_COOKIE]!)).enabled },
}));
