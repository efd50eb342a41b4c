import { SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryQueue, SenderSettings } from '#functions/webhooks/webhook-delivery';
import type { UrlRules } from '#functions/webhooks/webhooks';
import { awsClient } from '../aws-clients.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { createDocumentClient } from '../dynamo/client.ts';
import { DynamoQueueJournal } from '../dynamo/local-queue-store.ts';
import { systemResolver } from './dns-resolver.ts';
import { InProcessDeliveryQueue, InProcessQueue } from './in-process-queue.ts';
import { SqsDeliveryQueue } from './sqs-delivery-queue.ts';

/**
 * Webhook settings per stage (config/stages.ts), parsed at cold start. Loopback targets need both
 * the stage setting and the local stage itself: a deployed function never allows them, whatever
 * its environment says.
 */
export function webhookUrlRulesFrom(settings: SliceSettings<'webhookUrls'>): UrlRules {
  const allowLoopbackHttp = settings.WEBHOOK_ALLOW_LOOPBACK_HTTP && settings.STAGE === 'local';
  return { policy: { allowLoopbackHttp }, resolve: systemResolver };
}

export function senderSettingsFrom(settings: SliceSettings<'webhookSending'>): SenderSettings {
  return {
    ...webhookUrlRulesFrom(settings),
    retryScheduleMs: settings.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    jitter: 0.1,
  };
}

/** The stack's WebhookQueue (and its DLQ) when their URLs are set; else, on the local stage only,
 * the local runtime's in-process queue. */
export function deliveryQueueFrom(settings: SliceSettings<'deliveryQueue'>): DeliveryQueue {
  const queueUrl = settings.WEBHOOK_QUEUE_URL;
  if (queueUrl) {
    const deadLetterUrl = settings.WEBHOOK_DLQ_URL;
    if (!deadLetterUrl) throw new Error('WEBHOOK_DLQ_URL must be set with WEBHOOK_QUEUE_URL');
    return new SqsDeliveryQueue(awsClient(new SQSClient({})), queueUrl, deadLetterUrl);
  }
  if (settings.STAGE === 'local') return localDeliveryQueue(settings);
  throw new Error('Missing required environment variable WEBHOOK_QUEUE_URL');
}

/** The local runtime's queues: one pair per process, shared by the dispatcher and the sender,
 * as the stack's WebhookQueue and WebhookDlq are (same receive limit), and durable as they are:
 * journaled in the runtime's table, so a message outlives the process. */
let localQueues: InProcessDeliveryQueue | undefined;

export const LOCAL_MAX_RECEIVE_COUNT = 10;

export function localDeliveryQueue(settings: SliceSettings<'deliveryQueue'>): InProcessDeliveryQueue {
  if (!localQueues) {
    const db = createDocumentClient(settings.DYNAMODB_ENDPOINT);
    const tableName = settings.TABLE_NAME;
    const deadLetter = new InProcessQueue({ visibilityTimeoutMs: 30_000, journal: new DynamoQueueJournal(db, tableName, 'webhook-dlq') });
    // Longer than a try can take (the POST's timeout, after the 5 s DNS bound), so a message whose
    // try is still in flight is never shown to the sender a second time; shorter than the stack's
    // 180 s, so a sender failure locally is retried within seconds.
    const visibilityTimeoutMs = settings.WEBHOOK_TIMEOUT_MS + 10_000;
    const queue = new InProcessQueue({
      visibilityTimeoutMs,
      maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT,
      deadLetter,
      journal: new DynamoQueueJournal(db, tableName, 'webhook'),
    });
    localQueues = new InProcessDeliveryQueue(queue, deadLetter);
  }
  return localQueues;
}
