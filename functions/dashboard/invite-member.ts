import { inviteMember } from '#domain/team-members';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';

const { dashboard, team } = dynamoFromEnv();

/** The only answer that holds the invitation's token: the page turns it into the link to send. */
export const handler = dashboardRoute({ body: inviteMemberBody, access: 'manageTeam', memberships: dashboard }, async ({ caller, body }) => ({
  status: 201,
  data: await inviteMember(team, caller, body),
}));
