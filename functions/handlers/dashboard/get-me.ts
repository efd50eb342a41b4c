import { me } from '#functions/people/memberships';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/get-me');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);

export const handler = dashboardRoute({ access: 'session' }, async ({ personId }) => ({ data: await me({ memberships, companies }, personId) }));
