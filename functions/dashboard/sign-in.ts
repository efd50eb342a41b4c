import { signIn } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { userPoolFromEnv } from '#adapters/cognito/from-env';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { signInBody } from './schemas.ts';

const { dashboard } = dynamoFromEnv();
const { identity } = userPoolFromEnv();

export const handler = dashboardRoute({ body: signInBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const session = await signIn(identity, dashboard, body, origin);
  return { data: { signedIn: true }, cookies: sessionCookies(session, newCsrfToken(), secureCookies) };
});
