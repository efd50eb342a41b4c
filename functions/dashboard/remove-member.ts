import { removeMember } from '#domain/team-members';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';

const { dashboard, team } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'manageTeam', memberships: dashboard }, async ({ caller, pathParameters }) => {
  await removeMember(team, caller, pathParameters.personId!);
  return { data: { removed: true } };
});
