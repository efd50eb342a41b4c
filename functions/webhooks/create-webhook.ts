import { createdWebhookView, createWebhook } from '#domain/webhooks';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookSecretSealerFromEnv } from '#adapters/webhook-secrets/from-env';
import { webhookUrlRulesFromEnv } from '#adapters/webhooks/from-env';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';
import { sealingReplayedSecrets } from './sealed-replays.ts';

const { db, tableName, idempotency } = dynamoFromEnv();
const webhooks = new DynamoWebhookRegistry(db, tableName);
const urlRules = webhookUrlRulesFromEnv();
const sealer = webhookSecretSealerFromEnv();

export const handler = httpRoute({ body: webhookBody, idempotency: sealingReplayedSecrets(idempotency, sealer) }, async ({ companyId, body }) => ({
  status: 201,
  data: createdWebhookView(await createWebhook(webhooks, urlRules, sealer, companyId, body)),
}));
