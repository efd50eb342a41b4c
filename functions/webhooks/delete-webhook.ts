import { deleteWebhook } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookStore } from '#adapters/dynamo/webhook-store';
import { httpRoute } from '#http/route';

const { db, tableName } = dynamoFromEnv();
const webhooks = new DynamoWebhookStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: await deleteWebhook(webhooks, companyId, pathParameters.id ?? ''),
}));
