import type { Page, PageRequest } from '#functions/shared/pagination';
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { WebhookEndpointStore, WebhookAttempt } from '#functions/webhooks/webhook-endpoints';
import type { DomainEvent } from '#functions/shared/events';
import type { Webhook } from '#functions/webhooks/webhooks';
import { auditEntryItem } from './items/audit-entry.ts';
import { eventItem } from './items/event.ts';
import { webhookAttemptItem } from './items/webhook-attempt.ts';
import { webhookItem } from './items/webhook.ts';
import { webhookDeliveryItem } from './items/webhook-delivery.ts';
import { heldCondition, newestFirstPage, readItem } from './queries.ts';
import { TableStore } from './table-store.ts';
import { MoneyTransaction, stale } from './transaction.ts';

const NEW_ONLY = 'attribute_not_exists(PK)';
/** A resend and a redelivery taking a round at the same moment: the loser reads again. */
const ROUND_TRIES = 3;

/** The Webhooks pages' reads and writes beyond the registry's: attempts, resends, test events, rolls. */
export class DynamoWebhookEndpointStore extends TableStore implements WebhookEndpointStore {
  async attemptsOf(companyId: string, webhookId: string, page: PageRequest): Promise<Page<WebhookAttempt>> {
    const { items, nextCursor } = await newestFirstPage(this.db, this.tableName, webhookAttemptItem.ofWebhook(companyId, webhookId), page);
    return { records: items.map(webhookAttemptItem.fromItem), nextCursor };
  }

  async nextDeliveryRound(companyId: string, eventId: string, webhookId: string): Promise<number | null> {
    for (let tries = 0; tries < ROUND_TRIES; tries++) {
      const [delivery, event] = await Promise.all([
        readItem(this.db, this.tableName, webhookDeliveryItem.key(companyId, eventId, webhookId)),
        readItem(this.db, this.tableName, eventItem.key(companyId, eventId)),
      ]);
      if (!delivery || !event) return null;
      const counted = eventItem.dispatchableFromItem(event).round;
      // Above the delivery's too: one resent before rounds were counted on the event had its own.
      const round = Math.max(counted, webhookDeliveryItem.stateFromItem(delivery).round) + 1;
      const taken = await heldCondition(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: eventItem.key(companyId, eventId),
            UpdateExpression: 'SET #round = :round',
            ConditionExpression: counted === 0 ? 'attribute_not_exists(#round) OR #round = :counted' : '#round = :counted',
            ExpressionAttributeNames: { '#round': 'round' },
            ExpressionAttributeValues: { ':round': round, ':counted': counted },
          }),
        ),
      );
      if (taken) return round;
    }
    throw new Error(`The rounds of event ${eventId} kept changing while a resend took one`);
  }

  async addEvent(event: DomainEvent, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [eventItem.toItem(event), auditEntryItem.toItem(audit)].map((Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: NEW_ONLY } })),
      }),
    );
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: auditEntryItem.toItem(entry), ConditionExpression: NEW_ONLY }));
  }

  async rollSecret(webhook: Webhook, expectedSealedSecret: string, audit: AuditEntry): Promise<boolean> {
    return new MoneyTransaction(this.tableName)
      .update(webhookItem.key(webhook.companyId, webhook.id), {
        // The new secret is always sealed; a plain `secret` not yet sealed (as the expected one) is removed.
        expression: 'SET sealedSecret = :sealed, previousSealedSecret = :previous, previousSecretExpiresAt = :until, updatedAt = :at REMOVE secret',
        // Gone, or rolled by someone else since it was read: nothing is written.
        condition: 'attribute_exists(PK) AND (sealedSecret = :expected OR secret = :expected)',
        values: {
          ':sealed': webhook.sealedSecret,
          ':previous': webhook.previousSealedSecret,
          ':until': webhook.previousSecretExpiresAt,
          ':at': webhook.updatedAt,
          ':expected': expectedSealedSecret,
        },
        onFailed: stale,
      })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commitUnlessStale(this.db);
  }

}
