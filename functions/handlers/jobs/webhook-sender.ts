import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sendDelivery, type DeliveryMessage, type SendOutcome, type SenderDeps } from '#functions/webhooks/webhook-delivery';
import { alertGivenUpDelivery } from '#functions/webhooks/webhook-alerts';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDeliveryStore } from '#adapters/dynamo/webhook-delivery-store';
import { DynamoWebhookAlertStore } from '#adapters/dynamo/webhook-alert-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { postWebhook } from '#adapters/webhooks/http-poster';
import { deliveryQueueFrom, senderSettingsFrom } from '#adapters/webhooks/from-settings';
import { webhookSecretSealerFrom } from '#adapters/webhook-secrets/from-settings';
import { cachingOpens } from '#functions/webhooks/webhook-secrets';
import { MetricUnit, runMetrics, withCorrelationId } from '#adapters/observability';
import { traced } from '#adapters/tracing';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/webhook-sender');
const { db, tableName } = dynamoFrom(settings);
const mailer = mailerFrom(settings);
const alerts = { alerts: new DynamoWebhookAlertStore(db, tableName), companies: new DynamoCompanyStore(db, tableName) };
const deps: SenderDeps = {
  store: new DynamoDeliveryStore(db, tableName),
  queue: deliveryQueueFrom(settings),
  post: postWebhook,
  settings: senderSettingsFrom(settings),
  // One KMS Decrypt per webhook per few minutes, not per delivery.
  sealer: cachingOpens(webhookSecretSealerFrom(settings)),
  // Where the stage mails, an endpoint that gives up on an event mails its managers.
  ...(mailer && { alert: (failure, log) => alertGivenUpDelivery({ ...alerts, mailer, log }, failure) }),
};

/** Outcomes counted as metrics: a delivery given up for good (its last try failed, or a 410 disabled
 * the webhook), a try that failed and will be retried, a delivery that succeeded. */
const COUNTED: Partial<Record<SendOutcome, string>> = {
  'dead-lettered': 'WebhookDeliveriesFailed',
  disabled: 'WebhookDeliveriesFailed',
  retrying: 'WebhookTriesFailed',
  succeeded: 'WebhookDeliveriesSucceeded',
};

/**
 * The webhook sender: one try per message, the batch's messages in parallel (each waits at most
 * the 15 s timeout). A message whose try could not be recorded or whose follow-up could not be
 * queued is reported as a batch item failure, so SQS shows it again after the visibility timeout
 * (and moves it to the dead-letter queue after 10 receives); every other one is deleted.
 * Each message logs one line under its event id (the `webhook-id` the receiver sees).
 */
export function handler(event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> {
  return traced('webhook send', () => sendBatch(event));
}

async function sendBatch(event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const metrics = runMetrics();
  await Promise.all(
    event.Records.map(async (record) => {
      let message: DeliveryMessage | undefined;
      try {
        message = JSON.parse(record.body) as DeliveryMessage;
        const log = withCorrelationId(message.eventId);
        const outcome = await sendDelivery({ ...deps, log }, message);
        const metric = COUNTED[outcome];
        if (metric) metrics.addMetric(metric, MetricUnit.Count, 1);
        const fields = { outcome, companyId: message.companyId, webhookId: message.webhookId, round: message.round, attempt: message.attempt };
        if (outcome === 'dead-lettered' || outcome === 'disabled' || outcome === 'dropped') log.warn('webhook delivery', fields);
        else log.info('webhook delivery', fields);
      } catch (error) {
        metrics.addMetric('WebhookMessagesErrored', MetricUnit.Count, 1);
        withCorrelationId(message?.eventId ?? record.messageId).error('webhook delivery errored; the message will be received again', {
          messageId: record.messageId,
          error,
        });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  return { batchItemFailures: failures };
}
