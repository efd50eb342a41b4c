import { listApiKeys } from '#functions/api-keys/key-management';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/list-api-keys');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const keys = new DynamoApiKeyStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller }) => ({ data: await listApiKeys(keys, caller) }));
