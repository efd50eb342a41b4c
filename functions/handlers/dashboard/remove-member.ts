import { removeMember } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';

const settings = functionSettings('dashboard/remove-member');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

export const handler = dashboardRoute({ access: 'manageTeam', memberships: dashboard }, async ({ caller, pathParameters }) => {
  await removeMember(team, caller, pathParameters.personId!);
  return { data: { removed: true } };
});
