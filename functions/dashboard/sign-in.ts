import { signIn } from '#domain/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { clearedTwoFactorCookie, sessionCookies, twoFactorCookie } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { signInBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/sign-in');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const { identity } = userPoolFrom(settings);

/** The password; for someone with two-factor sign-in on, the code comes next (sign-in-two-factor.ts). */
export const handler = dashboardRoute({ body: signInBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const outcome = await signIn(identity, dashboard, body, origin);
  if ('twoFactor' in outcome) return { data: { signedIn: false, twoFactorRequired: true }, cookies: [twoFactorCookie(outcome.twoFactor, secureCookies)] };
  return { data: { signedIn: true }, cookies: [...sessionCookies(outcome, newCsrfToken(), secureCookies), clearedTwoFactorCookie(secureCookies)] };
});
