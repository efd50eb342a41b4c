import { listWebhooks, webhookView } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listWebhooksQuery } from './schemas.ts';

const { db, tableName } = dynamoFromEnv();
const webhooks = new DynamoWebhookRegistry(db, tableName);

export const handler = httpRoute({}, async ({ companyId, query }) => {
  const page = await listWebhooks(webhooks, companyId, validate(listWebhooksQuery, query));
  return { data: page.webhooks.map(webhookView), pagination: { nextCursor: page.nextCursor } };
});
