import { auditSignIn } from '#domain/dashboard';
import { signInAgain } from '#domain/step-up';
import { ApiError } from '#domain/errors';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { confirmSessionBody } from './schemas.ts';
import { dashboard, identity } from './people-deps.ts';

/** `Confirm it's you`: the person's password (and code) now, and a session signed in now, which the
 * routes that ask for a recent sign-in accept (functions/domain/step-up.ts). */
export const handler = dashboardRoute({ body: confirmSessionBody, access: 'session' }, async ({ body, personId, origin, secureCookies }) => {
  const [membership] = await dashboard.membershipsOf(personId);
  if (!membership) throw new ApiError('FORBIDDEN', 'Only a member of a company confirms a session');
  const session = await signInAgain(identity, membership, body);
  await auditSignIn(dashboard, personId, origin, new Date());
  return { data: { confirmed: true }, cookies: sessionCookies(session, newCsrfToken(), secureCookies) };
});
