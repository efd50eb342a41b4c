import { inviteMember } from '#functions/people/team-members';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';
import { invitationMailing, mailCounts, memberships, team } from './team-deps.ts';

/** The invitation is mailed to the invited person, who alone gets its link; the answer says whether
 * the mail went, never the token. */
export const handler = dashboardRoute({ body: inviteMemberBody, access: 'manageTeam', memberships }, async ({ caller, body, dashboardOrigin, log }) => ({
  status: 201,
  data: await inviteMember(team, mailCounts, caller, body, invitationMailing(dashboardOrigin, log)),
}));
