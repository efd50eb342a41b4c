import { ApiError } from '#functions/shared/errors';
import { csrfCookie, SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { liveSession } from './session-deps.ts';

/**
 * The page asks here when a call answered 401: 200 while its session lives (the CSRF cookie set
 * again, the same for the same sign-in: functions/http/cookies.ts csrfTokenFor), else 401 and the
 * page signs in. The session's Cognito tokens are renewed on the server, when a route needs them
 * (functions/people/dashboard-sessions.ts identityTokenOf): there is nothing for the browser to renew.
 */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const session = await liveSession(cookies[SESSION_COOKIE]);
  if (!session) throw new ApiError('AUTH_FAILED', 'No session: sign in');
  return { data: { signedIn: true }, cookies: [csrfCookie(session.sessionId, secureCookies)] };
});
