import { userPoolFromEnv } from '#adapters/cognito/from-env';
import { clearedCookies, SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';

const { identity } = userPoolFromEnv();

/** GlobalSignOut revokes the person's refresh tokens; the cookies go in any case. */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const accessToken = cookies[SESSION_COOKIE];
  if (accessToken) await identity.signOut(accessToken);
  return { data: { signedOut: true }, cookies: clearedCookies(secureCookies) };
});
