import { verifyEmail } from '#functions/people/sign-up';
import { clearedTwoFactorCookie } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { verifyEmailBody } from './schemas.ts';
import { openedSessionCookies } from './session-deps.ts';
import { auditLog, identity, memberships, signInAttempts, store } from './sign-up-deps.ts';

/** The mailed link's page: the link and the sign-up's password prove the address, once; then the person is signed in. */
export const handler = dashboardRoute({ body: verifyEmailBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const session = await verifyEmail({ identity, store, attempts: signInAttempts, memberships, auditLog }, body, origin);
  return { data: { signedIn: true }, cookies: [...(await openedSessionCookies(session, secureCookies)), clearedTwoFactorCookie(secureCookies)] };
});
