import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sendDelivery, type DeliveryMessage, type SenderDeps } from '#domain/webhook-delivery';
import { dynamoFromEnv } from '#adapters/runtime';
import { DynamoWebhookStore } from '#adapters/dynamo/webhook-store';
import { postWebhook } from '#adapters/webhooks/http-poster';
import { deliveryQueueFromEnv, senderSettingsFromEnv } from '#adapters/webhooks/from-env';

const { db, tableName } = dynamoFromEnv();
const deps: SenderDeps = {
  store: new DynamoWebhookStore(db, tableName),
  queue: deliveryQueueFromEnv(),
  post: postWebhook,
  settings: senderSettingsFromEnv(),
};

/**
 * The webhook sender: one try per message, the batch's messages in parallel (each waits at most
 * the 15 s timeout). A message whose try could not be recorded or whose follow-up could not be
 * queued is reported as a batch item failure, so SQS shows it again after the visibility timeout
 * (and moves it to the dead-letter queue after 10 receives); every other one is deleted.
 */
export async function handler(event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = JSON.parse(record.body) as DeliveryMessage;
        const outcome = await sendDelivery(deps, message);
        console.log(JSON.stringify({ level: 'info', message: 'webhook delivery', outcome, ...message }));
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'webhook delivery failed', messageId: record.messageId, error: String(error) }));
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
}
