import { listWebhooks, webhookView } from '#functions/webhooks/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { pageResult } from '#http/envelope';
import { httpRoute } from '#http/route';
import { validate } from '#http/validation';
import { listWebhooksQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/list-webhooks');
const { db, tableName } = dynamoFrom(settings);
const webhooks = new DynamoWebhookRegistry(db, tableName);

export const handler = httpRoute({}, async ({ companyId, query }) =>
  pageResult(await listWebhooks(webhooks, companyId, validate(listWebhooksQuery, query)), webhookView),
);
