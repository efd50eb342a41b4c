import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { backoffDelay, sleep, type RetryPolicy } from '#functions/shared/retry';
import type { DeliveryMessage, DeliveryQueue, QueuedMessage } from '#functions/webhooks/webhook-delivery';

/** SQS holds a message back for at most 15 minutes; longer waits ride on `notBefore` and are
 * re-delayed by the sender when the message comes back early. */
export const SQS_MAX_DELAY_SECONDS = 900;
const BATCH = 10;
/** Entries SQS refused within a batch: three sends in all, the retries 50–100 ms and 100–200 ms later. */
const FAILED_ENTRIES_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 };

/**
 * The webhook queue in AWS. A standard queue has no deduplication, so a message sent twice is
 * delivered twice; receivers drop the second by its `webhook-id` (the event id). Each message is
 * grouped by its company (MessageGroupId): on a standard queue that makes it an SQS fair queue, so
 * one company's backlog or slow endpoints (each try up to the poster's timeout, and nine more
 * tries each) do not make other companies' deliveries wait behind them: SQS gives the sender the
 * quiet companies' messages first while one company holds more than its share in flight.
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    private readonly deadLetterUrl: string,
    private readonly retry: RetryPolicy = FAILED_ENTRIES_RETRY,
  ) {}

  async send(messages: QueuedMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += BATCH) {
      let entries = messages.slice(start, start + BATCH).map((queued, index) => ({
        Id: String(index),
        MessageBody: JSON.stringify(queued.message),
        MessageGroupId: queued.message.companyId,
        DelaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(queued.delayMs / 1000))),
      }));
      // SendMessageBatch succeeds per entry: send the failed ones again after a backoff (a failed
      // entry is most often throttling), then give up loudly.
      for (let attempt = 1; ; attempt++) {
        const { Failed = [] } = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
        if (!Failed.length) break;
        if (attempt >= this.retry.maxAttempts) throw new Error(`SQS refused ${Failed.length} webhook messages: ${Failed.map((f) => f.Message ?? f.Code).join('; ')}`);
        const failedIds = new Set(Failed.map((failure) => failure.Id));
        entries = entries.filter((entry) => failedIds.has(entry.Id));
        await sleep(backoffDelay(this.retry, attempt));
      }
    }
  }

  async sendToDeadLetter(message: DeliveryMessage, reason: string): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.deadLetterUrl, MessageBody: JSON.stringify({ ...message, reason }) }));
  }
}
