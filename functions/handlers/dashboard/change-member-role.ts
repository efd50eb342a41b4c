import { changeRole } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { changeRoleBody } from './schemas.ts';

const settings = functionSettings('dashboard/change-member-role');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);

export const handler = dashboardRoute({ body: changeRoleBody, access: 'manageTeam', memberships }, async ({ caller, body, pathParameters }) => ({
  data: await changeRole(team, caller, pathParameters.personId!, body.role),
}));
