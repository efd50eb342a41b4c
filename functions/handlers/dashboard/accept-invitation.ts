import { acceptInvitation } from '#functions/people/invitations';
import { dashboardRoute } from '#http/dashboard-route';
import { acceptInvitationBody } from './schemas.ts';
import { openedSessionCookies } from './session-deps.ts';
import { auditLog, identity, invitations, memberships, people, signInAttempts, twoFactorMarks } from './people-deps.ts';

/** The mailed link and a password: a sign-in, within the same limits and audited as POST /session's;
 * the answer names the company joined, which the page opens. */
export const handler = dashboardRoute({ body: acceptInvitationBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const { companyId, ...session } = await acceptInvitation({ identity, invitations, people, attempts: signInAttempts, memberships, auditLog, marks: twoFactorMarks }, body, origin);
  return { data: { signedIn: true, companyId }, cookies: await openedSessionCookies(session, secureCookies) };
});
