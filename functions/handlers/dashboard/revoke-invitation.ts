import { revokeInvitation } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/revoke-invitation'));
const dashboard = new DynamoDashboardStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

export const handler = dashboardRoute({ access: 'manageTeam', memberships: dashboard }, async ({ caller, pathParameters }) => {
  await revokeInvitation(team, caller, pathParameters.invitationId!);
  return { data: { revoked: true } };
});
