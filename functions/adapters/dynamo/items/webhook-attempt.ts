import type { AttemptRecord, DeliveryMessage } from '#functions/webhooks/webhook-delivery';
import type { WebhookAttempt } from '#functions/webhooks/webhook-endpoints';
import { toBigInt } from '../client.ts';
import { TABLE } from '../table-definition.ts';
import { companyPartition, type Item } from './item.ts';

/** How long an endpoint's page shows an attempt (DynamoDB's TTL then removes it; the delivery item keeps every attempt for devops). */
export const ATTEMPT_RETENTION_DAYS = 30;

/**
 * The one owner of a stored `WebhookAttempt` (docs/data-model.md): one HTTP try of one event to one
 * endpoint, under the endpoint in the company's partition, so the endpoint's page lists its tries
 * newest first with one Query. The sort key is the try's time then its identity (event, round,
 * attempt): a message the queue delivers twice writes the same key again, never a second row.
 * Written in the same transaction as the WebhookDelivery update that records the try.
 */
export const webhookAttemptItem = {
  type: 'WebhookAttempt',
  prefix: (webhookId: string) => `ATTEMPT#${webhookId}#`,
  ofWebhook: (companyId: string, webhookId: string) => ({ PK: companyPartition(companyId), skPrefix: webhookAttemptItem.prefix(webhookId) }),

  toItem: (message: DeliveryMessage, eventType: string, attempt: AttemptRecord, succeeded: boolean): Item => ({
    PK: companyPartition(message.companyId),
    SK: `${webhookAttemptItem.prefix(message.webhookId)}${attempt.at}#${message.eventId}#${message.round}#${message.attempt}`,
    type: webhookAttemptItem.type,
    webhookId: message.webhookId,
    eventId: message.eventId,
    eventType,
    round: message.round,
    attempt: message.attempt,
    attemptedAt: attempt.at,
    httpStatus: attempt.statusCode,
    durationMs: attempt.durationMs,
    result: succeeded ? 'succeeded' : 'failed',
    error: attempt.error,
    [TABLE.ttlAttribute]: Math.ceil(Date.parse(attempt.at) / 1000) + ATTEMPT_RETENTION_DAYS * 86_400,
  }),

  fromItem: (item: Item): WebhookAttempt => ({
    eventId: item.eventId as string,
    eventType: item.eventType as string,
    attemptedAt: item.attemptedAt as string,
    attempt: Number(toBigInt(item.attempt)),
    httpStatus: item.httpStatus === null || item.httpStatus === undefined ? null : Number(toBigInt(item.httpStatus)),
    durationMs: Number(toBigInt(item.durationMs)),
    result: item.result as WebhookAttempt['result'],
    error: (item.error as string | null | undefined) ?? null,
  }),
};
