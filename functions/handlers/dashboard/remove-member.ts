import { removeMember } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';

const settings = functionSettings('dashboard/remove-member');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

export const handler = dashboardRoute({ access: 'manageTeam', memberships }, async ({ caller, pathParameters }) => {
  await removeMember(team, caller, pathParameters.personId!);
  return { data: { removed: true } };
});
