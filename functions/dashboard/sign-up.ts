import { signUp } from '#domain/dashboard';
import { ApiError } from '#domain/errors';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { functionSettings } from '#functions/settings/functions';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { signUpBody } from './schemas.ts';

const settings = functionSettings('dashboard/sign-up');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const { identity } = userPoolFrom(settings);
// Production has no self sign-up: its first Owner is invited (npm run company:create -- --owner-email).
const selfSignUp = settings.STAGE_ENVIRONMENT === 'sandbox';

export const handler = dashboardRoute({ body: signUpBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  if (!selfSignUp) throw new ApiError('FORBIDDEN', 'Sign-up is closed here: ask your company\'s Owner for an invitation');
  const { session, company } = await signUp(identity, dashboard, body, origin);
  return { status: 201, data: { companyId: company.id }, cookies: sessionCookies(session, secureCookies) };
});
