import { listWebhooks, webhookView } from '#domain/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listWebhooksQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/list-webhooks');
const { db, tableName } = dynamoFrom(settings);
const webhooks = new DynamoWebhookRegistry(db, tableName);

export const handler = httpRoute({}, async ({ companyId, query }) => {
  const page = await listWebhooks(webhooks, companyId, validate(listWebhooksQuery, query));
  return { data: page.webhooks.map(webhookView), pagination: { nextCursor: page.nextCursor } };
});
