import { signUp } from '#domain/dashboard';
import { ApiError } from '#domain/errors';
import { dynamoFromEnv } from '#adapters/runtime';
import { userPoolFromEnv } from '#adapters/cognito/from-env';
import { requireEnv } from '#adapters/env';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { signUpBody } from './schemas.ts';

const { dashboard } = dynamoFromEnv();
const { identity } = userPoolFromEnv();
// Production has no self sign-up: its first Owner is invited (npm run company:create -- --owner-email).
const selfSignUp = requireEnv('STAGE_ENVIRONMENT') === 'sandbox';

export const handler = dashboardRoute({ body: signUpBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  if (!selfSignUp) throw new ApiError('FORBIDDEN', 'Sign-up is closed here: ask your company\'s Owner for an invitation');
  const { session, company } = await signUp(identity, dashboard, body, origin);
  return { status: 201, data: { companyId: company.id }, cookies: sessionCookies(session, newCsrfToken(), secureCookies) };
});
