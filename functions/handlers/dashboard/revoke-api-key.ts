import { revokeApiKey } from '#functions/api-keys/key-management';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/revoke-api-key');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const keys = new DynamoApiKeyStore(db, tableName);

export const handler = dashboardRoute({ body: emptyBody, access: 'manageKeys', memberships }, async ({ caller, pathParameters }) => ({
  data: await revokeApiKey(keys, caller, pathParameters.keyId!),
}));
