import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type {
  AttemptRecord,
  DeliveryMessage,
  DeliveryStatus,
  DeliveryStore,
  DispatchableEvent,
  DispatchStore,
  LoadedDelivery,
} from '#domain/webhook-delivery';
import { isPlainSecret, type PlainSecretStore } from '#domain/webhook-secrets';
import { limitReached, type Webhook, type WebhookPage, type WebhookStore } from '#domain/webhooks';
import { toBigInt } from './client.ts';
import { ENTITY, keys } from './keys.ts';
import { itemsUnder, newestFirstPage } from './queries.ts';
import { eventIdBound, eventItem } from './items/event.ts';
import { MoneyTransaction } from './transaction.ts';

type Item = Record<string, unknown>;

/**
 * The secret is stored sealed, as `sealedSecret` (domain/webhook-secrets.ts). Items written before
 * sealing hold the plain secret as `secret`: it is read into `sealedSecret` (which the sender opens
 * as the plain value it is) and written back under its old name by a PUT, never renamed, so an
 * item's attribute always says which of the two it holds.
 */
export const webhookItem = {
  toItem: ({ sealedSecret, ...webhook }: Webhook): Item => ({
    ...keys.webhook(webhook.companyId, webhook.id),
    type: ENTITY.webhook,
    ...webhook,
    [isPlainSecret(sealedSecret) ? 'secret' : 'sealedSecret']: sealedSecret,
  }),
  fromItem: (item: Item): Webhook => ({
    id: item.id as string,
    companyId: item.companyId as string,
    url: item.url as string,
    events: item.events as Webhook['events'],
    description: (item.description as string | null | undefined) ?? null,
    enabled: item.enabled as boolean,
    sealedSecret: (item.sealedSecret ?? item.secret) as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    disabledReason: (item.disabledReason as string | null | undefined) ?? null,
  }),
};

/** A condition that failed because the item is not there: the caller answers 404. */
class Missing extends Error {}

/**
 * Webhook registrations, and the dispatcher's and sender's view of events and deliveries. The
 * limit of 10 per company is a counter item whose ADD is conditional, in the same transaction as
 * the webhook's put: concurrent POSTs cannot overshoot it, as a count-then-write could.
 */
export class DynamoWebhookStore implements WebhookStore, DispatchStore, DeliveryStore, PlainSecretStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createWebhook(webhook: Webhook, limit: number): Promise<void> {
    await new MoneyTransaction(this.tableName)
      .update(keys.webhookCount(webhook.companyId), {
        expression: 'SET #type = :type ADD #count :one',
        condition: 'attribute_not_exists(#count) OR #count < :limit',
        names: { '#count': 'count', '#type': 'type' },
        values: { ':one': 1, ':limit': limit, ':type': ENTITY.webhookCount },
        onFailed: limitReached,
      })
      .create(webhookItem.toItem(webhook), () => new Error('Webhook id collision'))
      .commit(this.db);
  }

  async getWebhook(companyId: string, webhookId: string): Promise<Webhook | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.webhook(companyId, webhookId), ConsistentRead: true }),
    );
    return Item ? webhookItem.fromItem(Item) : null;
  }

  async listWebhooks(companyId: string, page: { limit: number; cursor?: string }): Promise<WebhookPage> {
    const { items, nextCursor } = await newestFirstPage(this.db, this.tableName, { ...keys.webhooksOf(companyId), kind: 'webhook' }, page);
    return { webhooks: items.map(webhookItem.fromItem), nextCursor };
  }


  async replaceWebhook(webhook: Webhook): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({ TableName: this.tableName, Item: webhookItem.toItem(webhook), ConditionExpression: 'attribute_exists(PK)' }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async deleteWebhook(companyId: string, webhookId: string): Promise<boolean> {
    try {
      await new MoneyTransaction(this.tableName)
        .delete(keys.webhook(companyId, webhookId), () => new Missing())
        .update(keys.webhookCount(companyId), { expression: 'ADD #count :minusOne', names: { '#count': 'count' }, values: { ':minusOne': -1 } })
        .commit(this.db);
      return true;
    } catch (error) {
      if (error instanceof Missing) return false;
      throw error;
    }
  }

  // The dispatcher's side.

  async webhooksOf(companyId: string): Promise<Webhook[]> {
    return (await itemsUnder(this.db, this.tableName, keys.webhooksOf(companyId))).map(webhookItem.fromItem);
  }

  async markDispatched(event: DispatchableEvent, webhookIds: string[], at: Date): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: eventItem.key(event.companyId, event.id),
          UpdateExpression: 'REMOVE GSI1PK, GSI1SK SET dispatchedTo = :to, dispatchedAt = :at',
          // A redelivery requested since this event was read raised its round: leave its mark.
          ConditionExpression: event.round === 0 ? 'attribute_not_exists(#round) OR #round = :round' : '#round = :round',
          ExpressionAttributeNames: { '#round': 'round' },
          ExpressionAttributeValues: { ':to': webhookIds, ':at': at.toISOString(), ':round': event.round },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async undispatchedEvents(before: Date, limit: number): Promise<DispatchableEvent[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :before',
        ExpressionAttributeValues: { ':pk': eventItem.undispatchedPartition, ':before': eventIdBound(before) },
        Limit: limit,
      }),
    );
    return Items.filter(eventItem.isOne).map(eventItem.dispatchableFromItem);
  }

  // The sender's side.

  async load(message: DeliveryMessage): Promise<LoadedDelivery> {
    const eventKey = eventItem.key(message.companyId, message.eventId);
    const webhookKey = keys.webhook(message.companyId, message.webhookId);
    const deliveryKey = keys.webhookDelivery(message.companyId, message.eventId, message.webhookId);
    let requested: Item[] = [eventKey, webhookKey, deliveryKey];
    const found: Item[] = [];
    // BatchGet may leave keys unprocessed under load; ask again for those.
    for (let round = 0; requested.length && round < 5; round++) {
      const { Responses, UnprocessedKeys } = await this.db.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: requested, ConsistentRead: true } } }),
      );
      found.push(...(Responses?.[this.tableName] ?? []));
      requested = (UnprocessedKeys?.[this.tableName]?.Keys as Item[] | undefined) ?? [];
    }
    if (requested.length) throw new Error('BatchGet left keys unprocessed');
    const bySk = new Map(found.map((item) => [item.SK as string, item]));
    const event = bySk.get(eventKey.SK);
    const webhook = bySk.get(webhookKey.SK);
    const delivery = bySk.get(deliveryKey.SK);
    return {
      event: event ? eventItem.deliverableFromItem(event) : null,
      webhook: webhook ? webhookItem.fromItem(webhook) : null,
      delivery: delivery ? { status: delivery.status as DeliveryStatus, round: Number(toBigInt(delivery.round ?? 0)) } : null,
    };
  }

  async record(
    message: DeliveryMessage,
    update: { eventType: string; status: DeliveryStatus; attempt?: AttemptRecord; nextAttemptAt?: string | null; reason?: string },
    at: Date,
  ): Promise<void> {
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
      ':type': ENTITY.webhookDelivery,
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
      sets.push('attempts = list_append(if_not_exists(attempts, :none), :attempt)');
      values[':none'] = [];
      values[':attempt'] = [update.attempt];
    }
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhookDelivery(message.companyId, message.eventId, message.webhookId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status', '#round': 'round' },
        ExpressionAttributeValues: values,
      }),
    );
  }

  async disableWebhook(companyId: string, webhookId: string, reason: string, at: Date): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(companyId, webhookId),
          UpdateExpression: 'SET enabled = :false, disabledReason = :reason, updatedAt = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':false': false, ':reason': reason, ':at': at.toISOString() },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * events:redeliver: marks a company's events created since `since` (of `types`, if given) as
   * undispatched again, one round further, so the dispatcher sends each to the webhooks that
   * subscribe to it now. Returns the events marked.
   */
  async markForRedelivery(companyId: string, since: Date, types: string[] | null, now = new Date()): Promise<DispatchableEvent[]> {
    const range = eventItem.between(companyId, since, now);
    const marked: DispatchableEvent[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': range.PK, ':from': range.from, ':to': range.to },
          ConsistentRead: true,
          ...(startKey && { ExclusiveStartKey: startKey }),
        }),
      );
      startKey = page.LastEvaluatedKey;
      for (const item of page.Items ?? []) {
        const event = eventItem.dispatchableFromItem(item);
        if (types && !types.includes(event.type)) continue;
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: eventItem.key(companyId, event.id),
            UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, redeliveryRequestedAt = :now ADD #round :one',
            ExpressionAttributeNames: { '#round': 'round' },
            ExpressionAttributeValues: { ...prefixed(eventItem.undispatchedMark(event.id)), ':now': now.toISOString(), ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        marked.push(eventItem.dispatchableFromItem(Attributes!));
      }
    } while (startKey);
    return marked;
  }

  // webhooks:seal-secrets (an operator's one-off: the only Scan here).

  async webhooksWithPlainSecrets(): Promise<Webhook[]> {
    const found: Webhook[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: '#type = :webhook AND attribute_exists(secret)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':webhook': ENTITY.webhook },
          ConsistentRead: true,
          ...(startKey && { ExclusiveStartKey: startKey }),
        }),
      );
      found.push(...(page.Items ?? []).map(webhookItem.fromItem));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  async replacePlainSecret(webhook: { companyId: string; id: string }, plain: string, sealed: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(webhook.companyId, webhook.id),
          UpdateExpression: 'SET sealedSecret = :sealed REMOVE secret',
          ConditionExpression: 'secret = :plain',
          ExpressionAttributeValues: { ':sealed': sealed, ':plain': plain },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Devops' view: an event's deliveries with their attempts. */
  async deliveriesOfEvent(companyId: string, eventId: string): Promise<Item[]> {
    return itemsUnder(this.db, this.tableName, keys.deliveriesOfEvent(companyId, eventId));
  }
}

function prefixed(key: { GSI1PK: string; GSI1SK: string }): Item {
  return { ':pk': key.GSI1PK, ':sk': key.GSI1SK };
}
