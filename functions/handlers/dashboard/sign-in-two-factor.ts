import { finishTwoFactorSignIn } from '#functions/people/two-factor';
import { clearedTwoFactorCookie, readTwoFactorCookie } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorCodeBody } from './two-factor-schemas.ts';
import { twoFactor } from './people-deps.ts';
import { openedSessionCookies } from './session-deps.ts';

/** The authenticator app's code after the password: the session. */
export const handler = dashboardRoute({ body: twoFactorCodeBody, access: 'public' }, async ({ body, cookies, origin, secureCookies }) => {
  const session = await finishTwoFactorSignIn(twoFactor, readTwoFactorCookie(cookies), body.code, origin);
  return { data: { signedIn: true }, cookies: [...(await openedSessionCookies(session, secureCookies)), clearedTwoFactorCookie(secureCookies)] };
});
