import { getWebhook, webhookView } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { httpRoute } from '#http/route';

const { db, tableName } = dynamoFromEnv();
const webhooks = new DynamoWebhookRegistry(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: webhookView(await getWebhook(webhooks, companyId, pathParameters.id ?? '')),
}));
