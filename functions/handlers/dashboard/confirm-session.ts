import { confirmSession } from '#functions/people/step-up';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { confirmSessionBody } from './schemas.ts';
import { auditLog, codes, identity, memberships } from './people-deps.ts';

/** `Confirm it's you`: the person's password (and code) now, and the session signed in now. */
export const handler = dashboardRoute({ body: confirmSessionBody, access: 'session' }, async ({ body, personId, origin, secureCookies }) => ({
  data: { confirmed: true },
  cookies: sessionCookies(await confirmSession({ identity, codes, memberships, auditLog }, personId, body, origin), secureCookies),
}));
