import { replaceWebhook, webhookView } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookUrlRulesFromEnv } from '#adapters/webhooks/from-env';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';

const { db, tableName } = dynamoFromEnv();
const webhooks = new DynamoWebhookRegistry(db, tableName);
const urlRules = webhookUrlRulesFromEnv();

export const handler = httpRoute({ body: webhookBody }, async ({ companyId, pathParameters, body }) => ({
  data: webhookView(await replaceWebhook(webhooks, urlRules, companyId, pathParameters.id ?? '', body)),
}));
