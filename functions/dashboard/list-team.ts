import { team } from '#domain/team-members';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';

const { dashboard, team: teamStore } = dynamoFromEnv();

/** Members and pending invitations; any role may read them. */
export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller }) => ({ data: await team(teamStore, caller) }));
