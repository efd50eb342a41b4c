import { inviteMember } from '#functions/people/team-members';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';
import { invitationMailing, mailCounts, memberships, team } from './team-deps.ts';

/** The only answer that holds the invitation's token: the page turns it into the link to send, and
 * says whether the invited person was also mailed it. */
export const handler = dashboardRoute({ body: inviteMemberBody, access: 'manageTeam', memberships }, async ({ caller, body, dashboardOrigin, log }) => ({
  status: 201,
  data: await inviteMember(team, mailCounts, caller, body, invitationMailing(dashboardOrigin, log)),
}));
