import { inviteMember } from '#domain/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/invite-member');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

/** The only answer that holds the invitation's token: the page turns it into the link to send. */
export const handler = dashboardRoute({ body: inviteMemberBody, access: 'manageTeam', memberships: dashboard }, async ({ caller, body }) => ({
  status: 201,
  data: await inviteMember(team, caller, body),
}));
