import { turnOffTwoFactor } from '#functions/people/two-factor';
import { dashboardRoute } from '#http/dashboard-route';
import { confirmSessionBody } from './schemas.ts';
import { twoFactor } from './people-deps.ts';
import { identityToken } from './session-deps.ts';

/** Account → `Turn off two-factor sign-in`, with the person's password and code now. */
export const handler = dashboardRoute({ body: confirmSessionBody, access: 'session' }, async ({ body, sessionCookie, personId, origin }) => ({
  data: await turnOffTwoFactor(twoFactor, { personId, accessToken: await identityToken(sessionCookie) }, body, origin),
}));
