import { team } from '#functions/people/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';

const settings = functionSettings('dashboard/list-team');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const teamStore = new DynamoTeamStore(db, tableName);

/** Members and pending invitations; any role may read them. */
export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller }) => ({ data: await team(teamStore, caller) }));
