import { turnOnTwoFactor } from '#functions/people/two-factor';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorCodeBody } from './two-factor-schemas.ts';
import { twoFactor } from './people-deps.ts';
import { identityToken } from './session-deps.ts';

/** The app's first code: two-factor sign-in is on (or on with this app) from the next sign-in. */
export const handler = dashboardRoute({ body: twoFactorCodeBody, access: 'session' }, async ({ body, sessionCookie, personId, origin }) => ({
  data: await turnOnTwoFactor(twoFactor, { personId, accessToken: await identityToken(sessionCookie) }, body, origin),
}));
