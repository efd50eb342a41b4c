import { SQSClient } from '@aws-sdk/client-sqs';
import { CONTRACT_RETRY_SCHEDULE, parseRetrySchedule, type DeliveryQueue, type SenderSettings } from '#domain/webhook-delivery';
import type { UrlRules } from '#domain/webhooks';
import { awsClient } from '../aws-clients.ts';
import { optionalEnv, requireEnv } from '../env.ts';
import { createDocumentClient } from '../dynamo/client.ts';
import { DynamoQueueJournal } from '../dynamo/local-queue-store.ts';
import { systemResolver } from './dns-resolver.ts';
import { InProcessDeliveryQueue, InProcessQueue } from './in-process-queue.ts';
import { SqsDeliveryQueue } from './sqs-delivery-queue.ts';

/**
 * Webhook settings per stage (lib/stages.ts), read once at cold start. Loopback targets need both
 * the stage setting and the local stage itself: a deployed function never allows them, whatever
 * its environment says.
 */
export function webhookUrlRulesFromEnv(): UrlRules {
  const allowLoopbackHttp = optionalEnv('WEBHOOK_ALLOW_LOOPBACK_HTTP') === 'true' && optionalEnv('STAGE') === 'local';
  return { policy: { allowLoopbackHttp }, resolve: systemResolver };
}

export function senderSettingsFromEnv(): SenderSettings {
  const timeoutMs = Number(optionalEnv('WEBHOOK_TIMEOUT_MS') ?? 15_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error('WEBHOOK_TIMEOUT_MS must be a positive integer');
  return {
    ...webhookUrlRulesFromEnv(),
    retryScheduleMs: parseRetrySchedule(optionalEnv('WEBHOOK_RETRY_SCHEDULE') ?? CONTRACT_RETRY_SCHEDULE),
    timeoutMs,
    jitter: 0.1,
  };
}

/** The stack's WebhookQueue (and its DLQ) when their URLs are set; else, on the local stage only,
 * the local runtime's in-process queue. */
export function deliveryQueueFromEnv(): DeliveryQueue {
  const queueUrl = optionalEnv('WEBHOOK_QUEUE_URL');
  if (queueUrl) {
    const deadLetterUrl = optionalEnv('WEBHOOK_DLQ_URL');
    if (!deadLetterUrl) throw new Error('WEBHOOK_DLQ_URL must be set with WEBHOOK_QUEUE_URL');
    return new SqsDeliveryQueue(awsClient(new SQSClient({})), queueUrl, deadLetterUrl);
  }
  if (optionalEnv('STAGE') === 'local') return localDeliveryQueue();
  throw new Error('Missing required environment variable WEBHOOK_QUEUE_URL');
}

export function sweepMinAgeMsFromEnv(): number {
  const value = Number(optionalEnv('WEBHOOK_SWEEP_MIN_AGE_MS') ?? 60_000);
  if (!Number.isInteger(value) || value < 0) throw new Error('WEBHOOK_SWEEP_MIN_AGE_MS must be a non-negative integer');
  return value;
}

/** The local runtime's queues: one pair per process, shared by the dispatcher and the sender,
 * as the stack's WebhookQueue and WebhookDlq are (same receive limit), and durable as they are:
 * journaled in the runtime's table, so a message outlives the process. */
let localQueues: InProcessDeliveryQueue | undefined;

export const LOCAL_MAX_RECEIVE_COUNT = 10;

export function localDeliveryQueue(): InProcessDeliveryQueue {
  if (!localQueues) {
    const db = createDocumentClient(optionalEnv('DYNAMODB_ENDPOINT'));
    const tableName = requireEnv('TABLE_NAME');
    const deadLetter = new InProcessQueue({ visibilityTimeoutMs: 30_000, journal: new DynamoQueueJournal(db, tableName, 'webhook-dlq') });
    // Longer than a try can take (the POST's timeout, after the 5 s DNS bound), so a message whose
    // try is still in flight is never shown to the sender a second time; shorter than the stack's
    // 180 s, so a sender failure locally is retried within seconds.
    const visibilityTimeoutMs = senderSettingsFromEnv().timeoutMs + 10_000;
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
