import type { AttemptRecord, DeliveryMessage, DeliveryState, DeliveryStatus } from '#functions/webhooks/webhook-delivery';
import { toBigInt } from '../client.ts';
import { companyPartition, type Item } from './item.ts';

/** What a delivery try changes on its WebhookDelivery item. */
export interface DeliveryUpdate {
  eventType: string;
  status: DeliveryStatus;
  attempt?: AttemptRecord;
  nextAttemptAt?: string | null;
  reason?: string;
}

/**
 * The one owner of a stored `WebhookDelivery` (docs/data-model.md): one per (event, webhook), its
 * status and every attempt, for devops. Written only by an UpdateItem that appends the attempt, so
 * its "toItem" is that update.
 */
export const webhookDeliveryItem = {
  type: 'WebhookDelivery',
  key: (companyId: string, eventId: string, webhookId: string) => ({
    PK: companyPartition(companyId),
    SK: `DELIVERY#${eventId}#${webhookId}`,
  }),
  ofEvent: (companyId: string, eventId: string) => ({ PK: companyPartition(companyId), skPrefix: `DELIVERY#${eventId}#` }),

  /** The UpdateItem's parts that record a try: sets the status, appends the attempt if any. */
  toUpdate: (message: DeliveryMessage, update: DeliveryUpdate, at: Date) => {
    const sets = [
      '#type = :type',
      'companyId = :companyId',
      'eventId = :eventId',
      'webhookId = :webhookId',
      'eventType = :eventType',
      '#status = :status',
      '#round = :round',
      'nextAttemptAt = :next',
      'reason = :reason',
      'updatedAt = :at',
      'createdAt = if_not_exists(createdAt, :at)',
    ];
    const values: Item = {
      ':type': webhookDeliveryItem.type,
      ':companyId': message.companyId,
      ':eventId': message.eventId,
      ':webhookId': message.webhookId,
      ':eventType': update.eventType,
      ':status': update.status,
      ':round': message.round,
      ':next': update.nextAttemptAt ?? null,
      ':reason': update.reason ?? null,
      ':at': at.toISOString(),
    };
    if (update.attempt) {
      // A round starts at its first try: what an earlier round queued says nothing of this one's.
      if (update.attempt.attempt === 1) sets.push('followUpQueued = :noneQueued');
      if (update.attempt.attempt === 1) values[':noneQueued'] = 0;
      sets.push('lastAttempt = :attemptNumber');
      values[':attemptNumber'] = update.attempt.attempt;
      sets.push('attempts = list_append(if_not_exists(attempts, :none), :attempt)');
      values[':none'] = [];
      values[':attempt'] = [update.attempt];
    }
    return {
      Key: webhookDeliveryItem.key(message.companyId, message.eventId, message.webhookId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      // Never back to an older round: a try of one still queued when a newer began writes nothing.
      ConditionExpression: 'attribute_not_exists(#round) OR #round <= :round',
      ExpressionAttributeNames: { '#type': 'type', '#status': 'status', '#round': 'round' },
      ExpressionAttributeValues: values,
    };
  },

  /** What the sender needs to tell a duplicate or cancelled delivery from one to try. */
  stateFromItem: (item: Item): DeliveryState => ({
    status: item.status as DeliveryStatus,
    round: Number(toBigInt(item.round ?? 0)),
    attempt: item.lastAttempt === undefined ? 0 : Number(toBigInt(item.lastAttempt)),
    followUpQueued: item.followUpQueued === undefined ? 0 : Number(toBigInt(item.followUpQueued)),
    nextAttemptAt: (item.nextAttemptAt as string | null | undefined) ?? null,
    reason: (item.reason as string | null | undefined) ?? null,
  }),

  /** The try whose follow-up was queued, within its round. */
  followUpQueued: (message: DeliveryMessage) => ({
    Key: webhookDeliveryItem.key(message.companyId, message.eventId, message.webhookId),
    UpdateExpression: 'SET followUpQueued = :attempt',
    ConditionExpression: '#round = :round',
    ExpressionAttributeNames: { '#round': 'round' },
    ExpressionAttributeValues: { ':attempt': message.attempt, ':round': message.round },
  }),

  /** The delivery with every attempt, for people (the dashboard's event detail). */
  attemptsFromItem: (item: Item): { webhookId: string; status: DeliveryStatus; attempts: AttemptRecord[] } => ({
    webhookId: item.webhookId as string,
    status: item.status as DeliveryStatus,
    attempts: ((item.attempts as Item[] | undefined) ?? []).map((attempt) => ({
      round: Number(toBigInt(attempt.round)),
      attempt: Number(toBigInt(attempt.attempt)),
      at: attempt.at as string,
      url: attempt.url as string,
      statusCode: attempt.statusCode === null || attempt.statusCode === undefined ? null : Number(toBigInt(attempt.statusCode)),
      durationMs: Number(toBigInt(attempt.durationMs)),
      error: (attempt.error as string | null | undefined) ?? null,
    })),
  }),
};
