import { replaceWebhook, webhookView } from '#functions/webhooks/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookUrlRulesFrom } from '#adapters/webhooks/from-settings';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/replace-webhook');
const { db, tableName } = dynamoFrom(settings);
const webhooks = new DynamoWebhookRegistry(db, tableName);
const urlRules = webhookUrlRulesFrom(settings);

export const handler = httpRoute({ body: webhookBody }, async ({ companyId, pathParameters, body }) => ({
  data: webhookView(await replaceWebhook(webhooks, urlRules, companyId, pathParameters.id ?? '', body)),
}));
