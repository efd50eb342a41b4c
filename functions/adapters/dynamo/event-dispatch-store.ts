import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OperatorAuditEntry } from '#functions/operations/operator-audit';
import type { DispatchableEvent, DispatchStore } from '#functions/webhooks/webhook-delivery';
import type { Webhook } from '#functions/webhooks/webhooks';
import { eventIdBound, eventItem } from './items/event.ts';
import type { Item } from './items/item.ts';
import { operatorAuditEntryItem } from './items/operator-audit-entry.ts';
import { webhookItem } from './items/webhook.ts';
import { heldCondition, itemsUnder, pagesOf } from './queries.ts';
import { TableStore } from './table-store.ts';

/**
 * The dispatcher's view of events: those still marked undispatched (the sparse GSI1 partition),
 * the mark cleared once their deliveries are queued, and set again by `events:redeliver`.
 */
export class DynamoDispatchStore extends TableStore implements DispatchStore {
  async webhooksOf(companyId: string): Promise<Webhook[]> {
    return (await itemsUnder(this.db, this.tableName, webhookItem.ofCompany(companyId))).map(webhookItem.fromItem);
  }

  async markDispatched(event: DispatchableEvent, webhookIds: string[], at: Date): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: eventItem.key(event.companyId, event.id),
          UpdateExpression: 'REMOVE GSI1PK, GSI1SK SET dispatchedTo = :to, dispatchedAt = :at',
          // A redelivery requested since this event was read raised its round: leave its mark.
          ConditionExpression: event.round === 0 ? 'attribute_not_exists(#round) OR #round = :round' : '#round = :round',
          ExpressionAttributeNames: { '#round': 'round' },
          ExpressionAttributeValues: { ':to': webhookIds, ':at': at.toISOString(), ':round': event.round },
        }),
      ),
    );
  }

  async undispatchedEvents(before: Date, limit: number, after?: string): Promise<{ events: DispatchableEvent[]; next: string | null }> {
    const { Items = [], LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :before',
        ExpressionAttributeValues: { ':pk': eventItem.undispatchedPartition, ':before': eventIdBound(before) },
        Limit: limit,
        ...(after && { ExclusiveStartKey: JSON.parse(after) as Item }),
      }),
    );
    return { events: Items.filter(eventItem.isOne).map(eventItem.dispatchableFromItem), next: LastEvaluatedKey ? JSON.stringify(LastEvaluatedKey) : null };
  }

  /**
   * events:redeliver: marks a company's events created since `since` (of `types`, if given) as
   * undispatched again, one round further, so the dispatcher sends each to the webhooks that
   * subscribe to it now. Returns the events marked. `audit` makes the operator's audit entry of
   * what was marked, put once anything was.
   */
  async markForRedelivery(
    companyId: string,
    since: Date,
    types: string[] | null,
    now = new Date(),
    audit?: (marked: DispatchableEvent[]) => OperatorAuditEntry,
  ): Promise<DispatchableEvent[]> {
    const range = eventItem.between(companyId, since, now);
    const marked: DispatchableEvent[] = [];
    const query = (ExclusiveStartKey: Item | undefined) =>
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': range.PK, ':from': range.from, ':to': range.to },
        ConsistentRead: true,
        ExclusiveStartKey,
      });
    for await (const page of pagesOf(this.db, query)) {
      for (const item of page) {
        const event = eventItem.dispatchableFromItem(item);
        if (types && !types.includes(event.type)) continue;
        const mark = eventItem.undispatchedMark(event.id);
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: eventItem.key(companyId, event.id),
            UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, redeliveryRequestedAt = :now ADD #round :one',
            ExpressionAttributeNames: { '#round': 'round' },
            ExpressionAttributeValues: { ':pk': mark.GSI1PK, ':sk': mark.GSI1SK, ':now': now.toISOString(), ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        marked.push(eventItem.dispatchableFromItem(Attributes!));
      }
    }
    // Right after the marks, not in their transaction: each event is marked by an UpdateItem of its
    // own, any number of them, where one transaction holds 100 items.
    if (audit && marked.length > 0) {
      const entry = audit(marked);
      if (!(await this.putIf(operatorAuditEntryItem.toItem(entry), 'attribute_not_exists(PK)'))) throw new Error(`Operator audit entry ${entry.id} exists`);
    }
    return marked;
  }
}
