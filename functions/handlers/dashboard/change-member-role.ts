import { changeRole } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { reauthenticationFrom } from '#adapters/cognito/reauthentication';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { changeRoleBody } from './schemas.ts';

const settings = functionSettings('dashboard/change-member-role');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);
const reauthentication = reauthenticationFrom(settings, db);

/** A raise is confirmed with the person's password (and code), a lowering with a recent sign-in. */
export const handler = dashboardRoute({ body: changeRoleBody, access: 'manageTeam', memberships }, async ({ caller, body, pathParameters, requireRecentSignIn }) => ({
  data: await changeRole(team, caller, pathParameters.personId!, body.role, { reauthentication, proof: { password: body.password, code: body.code }, requireRecentSignIn }),
}));
