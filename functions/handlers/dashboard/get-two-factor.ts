import { dashboardRoute } from '#http/dashboard-route';
import { identity } from './people-deps.ts';
import { identityToken } from './session-deps.ts';

/** Whether the signed-in person has two-factor sign-in on (Account). */
export const handler = dashboardRoute({ access: 'session' }, async ({ sessionCookie }) => ({
  data: { enabled: (await identity.status(await identityToken(sessionCookie))).enabled },
}));
