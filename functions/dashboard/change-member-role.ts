import { changeRole } from '#domain/team-members';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { changeRoleBody } from './schemas.ts';

const { dashboard, team } = dynamoFromEnv();

export const handler = dashboardRoute({ body: changeRoleBody, access: 'manageTeam', memberships: dashboard }, async ({ caller, body, pathParameters }) => ({
  data: await changeRole(team, caller, pathParameters.personId!, body.role),
}));
