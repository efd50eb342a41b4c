import { createdWebhookView, createWebhook, type CreatedWebhook } from '#functions/webhooks/webhooks';
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
 * answerAlongside): built from the secret, not from the stored webhook, and sealed for replay.
 */
export const handler = httpRoute({ body: webhookBody, idempotency: sealingReplayedSecrets(idempotency, sealer) }, async ({ companyId, body, idempotency: claimed }) => {
  const answer = claimed && (async (created: CreatedWebhook) => idempotency.answerAlongside(claimed, await sealedForReplay(storedAnswer(201, createdWebhookView(created)), sealer, companyId), new Date()));
  const created = await createWebhook(webhooks, urlRules, sealer, companyId, body, new Date(), { answer });
  return { status: 201, data: createdWebhookView(created), answerStored: answer !== undefined };
});
