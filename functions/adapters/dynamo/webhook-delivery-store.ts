import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryMessage, DeliveryStore, LoadedDelivery } from '#functions/webhooks/webhook-delivery';
import { eventItem } from './items/event.ts';
import type { Item } from './items/item.ts';
import { webhookItem } from './items/webhook.ts';
import { webhookAttemptItem } from './items/webhook-attempt.ts';
import { webhookDeliveryItem, type DeliveryUpdate } from './items/webhook-delivery.ts';
import { heldCondition, itemsUnder } from './queries.ts';
import { TableStore } from './table-store.ts';

/** The webhook disabled by a 410, while it still sends to the URL that answered it. */
const webhookGone = (message: DeliveryMessage, url: string, reason: string, at: Date) => ({
  Key: webhookItem.key(message.companyId, message.webhookId),
  UpdateExpression: 'SET enabled = :false, disabledReason = :reason, updatedAt = :at',
  ConditionExpression: '#url = :url',
  ExpressionAttributeNames: { '#url': 'url' },
  ExpressionAttributeValues: { ':false': false, ':reason': reason, ':at': at.toISOString(), ':url': url },
});

/**
 * The sender's view of a delivery: the event, webhook and delivery a try needs, the try recorded
 * on the delivery item, a webhook disabled by a 410; and devops' view of an event's deliveries.
 */
export class DynamoDeliveryStore extends TableStore implements DeliveryStore {
  async load(message: DeliveryMessage): Promise<LoadedDelivery> {
    const eventKey = eventItem.key(message.companyId, message.eventId);
    const webhookKey = webhookItem.key(message.companyId, message.webhookId);
    const deliveryKey = webhookDeliveryItem.key(message.companyId, message.eventId, message.webhookId);
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
      delivery: delivery ? webhookDeliveryItem.stateFromItem(delivery) : null,
    };
  }

  /** A try is recorded twice in one transaction: appended to the delivery (devops' view) and as a
   * row under its endpoint (the endpoint's page), so neither shows a try the other lacks. A try that
   * met 410 disables the webhook in that transaction too: the disable never stands without the try
   * that says why (nor the alert that follows it, which a message come back to a webhook already
   * disabled would cancel). */
  async record(message: DeliveryMessage, update: DeliveryUpdate & { disableWebhook?: { url: string; reason: string } }, at: Date): Promise<boolean> {
    const { disableWebhook, ...recorded } = update;
    const delivery = { TableName: this.tableName, ...webhookDeliveryItem.toUpdate(message, recorded, at) };
    if (!recorded.attempt) {
      if (disableWebhook) throw new Error('A webhook is disabled only with the try that met 410');
      return heldCondition(this.db.send(new UpdateCommand(delivery)));
    }
    const row = webhookAttemptItem.toItem(message, recorded.eventType, recorded.attempt, recorded.status === 'succeeded');
    const webhook = disableWebhook && { TableName: this.tableName, ...webhookGone(message, disableWebhook.url, disableWebhook.reason, at) };
    try {
      await this.db.send(
        new TransactWriteCommand({ TransactItems: [{ Update: delivery }, { Put: { TableName: this.tableName, Item: row } }, ...(webhook ? [{ Update: webhook }] : [])] }),
      );
      return true;
    } catch (error) {
      // A condition refused it: the delivery's own (a newer round), or the webhook's (pointed
      // elsewhere, or gone); anything else (a conflict) is thrown, and the message comes back.
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  /** A copy of a message from an older round (a resend since) marks nothing. */
  async followUpQueued(message: DeliveryMessage): Promise<void> {
    await heldCondition(this.db.send(new UpdateCommand({ TableName: this.tableName, ...webhookDeliveryItem.followUpQueued(message) })));
  }

  /** Devops' view: an event's deliveries with their attempts. */
  async deliveriesOfEvent(companyId: string, eventId: string): Promise<Item[]> {
    return itemsUnder(this.db, this.tableName, webhookDeliveryItem.ofEvent(companyId, eventId));
  }
}
