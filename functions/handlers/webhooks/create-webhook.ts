import { createdWebhookView, MAX_WEBHOOKS_PER_COMPANY, newWebhook } from '#functions/webhooks/webhooks';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoIdempotencyStore } from '#adapters/dynamo/idempotency-store';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookSecretSealerFrom } from '#adapters/webhook-secrets/from-settings';
import { webhookUrlRulesFrom } from '#adapters/webhooks/from-settings';
import { storedAnswer } from '#http/idempotency';
import { httpRoute } from '#http/route';
import { webhookBody } from './schemas.ts';
import { sealedForReplay, sealingReplayedSecrets } from './sealed-replays.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('webhooks/create-webhook');
const { db, tableName } = dynamoFrom(settings);
const idempotency = new DynamoIdempotencyStore(db, tableName);
const webhooks = new DynamoWebhookRegistry(db, tableName);
const urlRules = webhookUrlRulesFrom(settings);
const sealer = webhookSecretSealerFrom(settings);

/**
 * With an Idempotency-Key, the answer is written in the webhook's own transaction (idempotency-store.ts
 * answerAlongside): built here, not from the stored webhook, as it carries the secret (sealed for replay).
 */
export const handler = httpRoute({ body: webhookBody, idempotency: sealingReplayedSecrets(idempotency, sealer) }, async ({ companyId, body, idempotency: claimed }) => {
  const created = await newWebhook(urlRules, sealer, companyId, body);
  const data = createdWebhookView(created);
  const answer = claimed && idempotency.answerAlongside(claimed, await sealedForReplay(storedAnswer(201, data), sealer, companyId), new Date());
  await webhooks.createWebhook(created.webhook, MAX_WEBHOOKS_PER_COMPANY, undefined, answer);
  return { status: 201, data, answerStored: answer !== undefined };
});
