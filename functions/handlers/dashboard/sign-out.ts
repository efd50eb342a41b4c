import { signOutEverywhere } from '#functions/people/sign-outs';
import { clearedCookies, SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { identity } from './people-deps.ts';
import { endSession, identityToken, liveSession, signOuts } from './session-deps.ts';

/** Ends the person's sessions, on every device; the cookies go in any case. */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const cookieValue = cookies[SESSION_COOKIE];
  const session = await liveSession(cookieValue);
  await signOutEverywhere(session, { signOuts, revokeRefreshTokens: async () => identity.signOut(await identityToken(cookieValue, session!)) });
  await endSession(cookieValue);
  return { data: { signedOut: true }, cookies: clearedCookies(secureCookies) };
});
