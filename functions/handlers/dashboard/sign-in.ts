import { signIn } from '#functions/people/sign-in';
import { clearedTwoFactorCookie, twoFactorCookie } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { signInBody } from './schemas.ts';
import { openedSessionCookies } from './session-deps.ts';
import { auditLog, identity, memberships, people, signInAttempts, twoFactorMarks } from './people-deps.ts';

/** The password, within Cambio's limits on failures; for someone with two-factor sign-in on, the code comes next (sign-in-two-factor.ts). */
export const handler = dashboardRoute({ body: signInBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const outcome = await signIn({ identity, people, attempts: signInAttempts, memberships, auditLog, marks: twoFactorMarks }, body, origin);
  if ('twoFactor' in outcome) return { data: { signedIn: false, twoFactorRequired: true }, cookies: [twoFactorCookie(outcome.twoFactor, secureCookies)] };
  return { data: { signedIn: true }, cookies: [...(await openedSessionCookies(outcome, secureCookies)), clearedTwoFactorCookie(secureCookies)] };
});
