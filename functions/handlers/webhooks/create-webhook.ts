import { createdWebhookView, createWebhook } from '#functions/webhooks/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookSecretSealerFrom } from '#adapters/webhook-secrets/from-settings';
import { webhookUrlRulesFrom } from '#adapters/webhooks/from-settings';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';
import { sealingReplayedSecrets } from './sealed-replays.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/create-webhook');
const { db, tableName } = dynamoFrom(settings);
const idempotency = new DynamoIdempotencyStore(db, tableName);
const webhooks = new DynamoWebhookRegistry(db, tableName);
const urlRules = webhookUrlRulesFrom(settings);
const sealer = webhookSecretSealerFrom(settings);

export const handler = httpRoute({ body: webhookBody, idempotency: sealingReplayedSecrets(idempotency, sealer) }, async ({ companyId, body }) => ({
  status: 201,
  data: createdWebhookView(await createWebhook(webhooks, urlRules, sealer, companyId, body)),
}));
