import { createdWebhookView, createWebhook } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookStore } from '#adapters/dynamo/webhook-store';
import { webhookUrlRulesFromEnv } from '#adapters/webhooks/from-env';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';

const { db, tableName, idempotency } = dynamoFromEnv();
const webhooks = new DynamoWebhookStore(db, tableName);
const urlRules = webhookUrlRulesFromEnv();

export const handler = httpRoute({ body: webhookBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: createdWebhookView(await createWebhook(webhooks, urlRules, companyId, body)),
}));
