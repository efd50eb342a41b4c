import { inviteMember } from '#functions/people/team-members';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';
import { invitationMailing, mailCounts, memberships, reauthentication, team } from './team-deps.ts';

/** The invitation is mailed to the invited person, who alone gets its link; the answer says whether
 * the mail went, never the token. One to a role that reaches money is confirmed with the inviter's
 * password (and code), a Viewer's with a recent sign-in. */
export const handler = dashboardRoute(
  { body: inviteMemberBody, access: 'manageTeam', memberships },
  async ({ caller, body: { password, code, ...invitation }, dashboardOrigin, log, requireRecentSignIn }) => ({
    status: 201,
    data: await inviteMember(team, mailCounts, caller, invitation, invitationMailing(dashboardOrigin, log), { reauthentication, proof: { password, code }, requireRecentSignIn }),
  }),
);
