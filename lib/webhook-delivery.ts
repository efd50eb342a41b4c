import { Duration, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { JOBS } from '../functions/routes.ts';
import type { CambioFunction } from './api-function.ts';
import { TABLE_READ, mailSending, queueSend, tableActions, value } from './binders.ts';
import { accept } from './nag-suppressions.ts';
import type { StageScope } from './stage-scope.ts';
import type { WebhookSecrets } from './webhook-secrets.ts';

/** A batch's messages are sent in parallel, each given at most the contract's 15 s. */
const WEBHOOK_SENDER_TIMEOUT = Duration.seconds(30);

/** The webhook queue and its dead-letter queue, made in the stack's own scope (their logical ids are the stack's). */
export interface WebhookQueues {
  queue: Queue;
  dlq: Queue;
}

/**
 * Webhook delivery (functions/webhooks/webhook-delivery.ts). The dispatcher reads the table's
 * stream, filtered to inserted Event items, and sends one message per delivery to the webhook
 * queue; a failing batch is bisected and retried, and whatever still fails keeps its
 * undispatched mark, which the same function's catch-up pass dispatches every minute. The sender consumes the queue
 * in batches of 10 and reports partial batch failures, so one bad message never re-sends the rest.
 */
/** `mailFrom` (context): the sender also mails an endpoint's managers when it gives up on an event. */
export function webhookDelivery(
  stack: StageScope,
  queues: WebhookQueues,
  webhookSecrets: WebhookSecrets,
  mailFrom: string | null,
  senderConcurrency: number,
): { dispatcher: CambioFunction } {
  const dispatcher = stack.stageFunction(JOBS.webhookDispatcher.handler, {
    // Reads webhooks and the undispatched index; its only write clears an event's mark. It sends
    // to the queue; the dead-letter queue's URL names it (the sender sends there).
    bind: [tableActions(stack.table, ...TABLE_READ, 'dynamodb:UpdateItem'), queueSend('WEBHOOK_QUEUE_URL', queues.queue), value('WEBHOOK_DLQ_URL', queues.dlq.queueUrl)],
    timeout: Duration.seconds(60),
  });
  accept(dispatcher.role!, 'AwsSolutions-IAM5[Resource::*]', 'dynamodb:ListStreams, which the stream event source needs, has no resource-level permission.');
  dispatcher.addEventSource(
    new DynamoEventSource(stack.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      bisectBatchOnError: true,
      retryAttempts: 10,
      // A batch still failing after its retries is recorded here (its events keep their
      // undispatched mark, so the catch-up pass below delivers them).
      onFailure: new SqsDlq(stack.failedInvocations.streamFailures),
      filters: [
        FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual('Event') } } } }),
      ],
    }),
  );
  new Rule(stack, 'WebhookCatchUpSchedule', {
    description: 'Dispatches webhook events the stream did not (failed batches, redeliveries)',
    schedule: Schedule.rate(Duration.minutes(1)),
    targets: [stack.failedInvocations.scheduledTarget(dispatcher, Duration.minutes(1))],
  });

  const sender = stack.stageFunction(JOBS.webhookSender.handler, {
    bind: [
      // Reads event, webhook and delivery; records each attempt (a Put of its row in the
      // delivery's transaction: DynamoDB authorises each part of a transaction by its own action)
      // and disables a webhook on 410; where it mails, it also puts the day's alert of an endpoint
      // (WebhookAlert) and reads the company's profile and members to mail.
      tableActions(stack.table, ...TABLE_READ, 'dynamodb:UpdateItem', 'dynamodb:PutItem'),
      ...(mailFrom ? [mailSending(mailFrom)] : []),
      queueSend('WEBHOOK_QUEUE_URL', queues.queue),
      queueSend('WEBHOOK_DLQ_URL', queues.dlq),
      webhookSecrets.opening,
      // The tracer would record each POST's full URL (an integrator's may carry a token) and add an
      // X-Amzn-Trace-Id header to it; the sender's trace keeps its AWS calls only.
      value('POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS', 'false'),
    ],
    timeout: WEBHOOK_SENDER_TIMEOUT,
  });
  // A ceiling from the capacity model (config/capacity.ts WEBHOOK_SENDER_CONCURRENCY): a backlog
  // never takes the API's share of the account's Lambda concurrency.
  sender.addEventSource(new SqsEventSource(queues.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: senderConcurrency }));
  return { dispatcher };
}

export function webhookQueues(stack: Stack): WebhookQueues {
  const dlq = new Queue(stack, 'WebhookDlq', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new Queue(stack, 'WebhookQueue', {
    // The contract's retry schedule spans about 3 days (5 s … 24 h); the 4-day default would be
    // too close, so messages live as long as SQS allows.
    retentionPeriod: Duration.days(14),
    // Six times the sender's timeout, as AWS advises for an SQS event source: a batch still being
    // sent is never shown to a second sender.
    visibilityTimeout: Duration.seconds(WEBHOOK_SENDER_TIMEOUT.toSeconds() * 6),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Each try of a delivery is a message of its own (the sender queues the next one), and the
    // sender itself sends a delivery's last failed try here. The redrive catches the rest: a
    // message the sender could not process (store or queue failing) ten times over.
    deadLetterQueue: { queue: dlq, maxReceiveCount: 10 },
  });
  return { queue, dlq };
}
