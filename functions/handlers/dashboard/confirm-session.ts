import { confirmSession } from '#functions/people/step-up';
import { dashboardRoute } from '#http/dashboard-route';
import { confirmSessionBody } from './schemas.ts';
import { auditLog, codes, identity, memberships, signInAttempts, twoFactorMarks } from './people-deps.ts';
import { endSession, openedSessionCookies } from './session-deps.ts';

/** `Confirm it's you`: the person's password (and code) now, and a session signed in now in place
 * of the one that asked (which ends: its cookie is replaced). */
export const handler = dashboardRoute({ body: confirmSessionBody, access: 'session' }, async ({ body, sessionCookie, personId, origin, secureCookies }) => {
  const confirmed = await openedSessionCookies(await confirmSession({ identity, codes, attempts: signInAttempts, marks: twoFactorMarks, memberships, auditLog }, personId, body, origin), secureCookies);
  await endSession(sessionCookie);
  return { data: { confirmed: true }, cookies: confirmed };
});
