import { getWebhook, webhookView } from '#functions/webhooks/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { httpRoute } from '#http/route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/get-webhook');
const { db, tableName } = dynamoFrom(settings);
const webhooks = new DynamoWebhookRegistry(db, tableName);

export const handler = httpRoute({}, async ({ companyId, pathParameters }) => ({
  data: webhookView(await getWebhook(webhooks, companyId, pathParameters.id ?? '')),
}));
