import { overview } from '#functions/companies/company';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/get-overview');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller }) => ({ data: await overview(companies, caller, settings.RATE_LIMIT_TIERS) }));
