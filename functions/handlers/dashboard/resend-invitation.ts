import { resendInvitation } from '#functions/people/team-members';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';
import { invitationMailing, mailCounts, memberships, team } from './team-deps.ts';

/** `Resend`: a new link in place of the pending one, mailed to the invited person as Invite member's is. */
export const handler = dashboardRoute({ body: emptyBody, access: 'manageTeam', memberships }, async ({ caller, pathParameters, dashboardOrigin, log }) => ({
  data: await resendInvitation(team, mailCounts, caller, pathParameters.invitationId!, invitationMailing(dashboardOrigin, log)),
}));
