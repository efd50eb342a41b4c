import { finishTwoFactorSignIn } from '#domain/two-factor';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { clearedTwoFactorCookie, readTwoFactorCookie, sessionCookies } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { twoFactorCodeBody } from './two-factor-schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/sign-in-two-factor');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const { identity } = userPoolFrom(settings);

/** The authenticator app's code after the password: the session. */
export const handler = dashboardRoute({ body: twoFactorCodeBody, access: 'public' }, async ({ body, cookies, origin, secureCookies }) => {
  const session = await finishTwoFactorSignIn(identity, dashboard, readTwoFactorCookie(cookies), body.code, origin);
  return { data: { signedIn: true }, cookies: [...sessionCookies(session, newCsrfToken(), secureCookies), clearedTwoFactorCookie(secureCookies)] };
});
