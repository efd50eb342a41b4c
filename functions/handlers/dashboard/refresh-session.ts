import { ApiError } from '#functions/shared/errors';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { REFRESH_COOKIE, sessionCookies } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/refresh-session');
const { identity } = userPoolFrom(settings);

/** A new access token from the refresh cookie; the CSRF cookie is set again, the same for the same
 * sign-in (functions/http/cookies.ts csrfTokenFor). */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const refreshToken = cookies[REFRESH_COOKIE];
  if (!refreshToken) throw new ApiError('AUTH_FAILED', 'No session: sign in');
  return { data: { signedIn: true }, cookies: sessionCookies(await identity.refresh(refreshToken), secureCookies) };
});
