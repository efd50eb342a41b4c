import { turnOnTwoFactor } from '#domain/two-factor';
import { SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorCodeBody } from './two-factor-schemas.ts';
import { dashboard, identity } from './people-deps.ts';

/** The app's first code: two-factor sign-in is on from the next sign-in. */
export const handler = dashboardRoute({ body: twoFactorCodeBody, access: 'session' }, async ({ body, cookies, personId, origin }) => ({
  data: await turnOnTwoFactor(identity, dashboard, { personId, accessToken: cookies[SESSION_COOKIE]! }, body.code, origin),
}));
