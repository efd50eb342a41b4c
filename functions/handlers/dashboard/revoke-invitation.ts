import { revokeInvitation } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/revoke-invitation'));
const memberships = new DynamoMembershipStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

export const handler = dashboardRoute({ access: 'manageTeam', memberships }, async ({ caller, pathParameters }) => {
  await revokeInvitation(team, caller, pathParameters.invitationId!);
  return { data: { revoked: true } };
});
