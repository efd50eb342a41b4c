import type { Page, PageRequest } from '#functions/shared/pagination';
import { PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { PlainSecretStore } from '#functions/webhooks/webhook-secrets';
import { limitReached, type Webhook, type WebhookStore } from '#functions/webhooks/webhooks';
import type { Item } from './items/item.ts';
import { webhookCountItem, webhookItem } from './items/webhook.ts';
import { heldCondition, pagesOf } from './queries.ts';
import { MoneyTransaction } from './transaction.ts';
import type { Alongside } from '#functions/shared/alongside';
import { auditEntryItem } from './items/audit-entry.ts';
import { TableStore } from './table-store.ts';

/** A condition that failed because the item is not there: the caller answers 404. */
class Missing extends Error {}

/**
 * Webhook registrations: the /v1/webhooks routes, and the operator's sealing of secrets stored in
 * the clear. The limit of 10 per company is a counter item whose ADD is conditional, in the same
 * transaction as the webhook's put: concurrent POSTs cannot overshoot it, as a count-then-write could.
 * A change made in the dashboard carries its audit entry, written in the change's transaction.
 */
export class DynamoWebhookRegistry extends TableStore implements WebhookStore, PlainSecretStore {
  async createWebhook(webhook: Webhook, limit: number, audit?: AuditEntry, alongside?: Alongside): Promise<void> {
    await withAudit(new MoneyTransaction(this.tableName), audit)
      .update(webhookCountItem.key(webhook.companyId), {
        expression: 'SET #type = :type ADD #count :one',
        condition: 'attribute_not_exists(#count) OR #count < :limit',
        names: { '#count': 'count', '#type': 'type' },
        values: { ':one': 1, ':limit': limit, ':type': webhookCountItem.type },
        onFailed: limitReached,
      })
      .create(webhookItem.toItem(webhook), () => new Error('Webhook id collision'))
      .alongside(alongside)
      .commit(this.db);
  }

  async getWebhook(companyId: string, webhookId: string): Promise<Webhook | null> {
    return this.companyRecordById(webhookItem, companyId, webhookId);
  }

  async listWebhooks(companyId: string, page: PageRequest): Promise<Page<Webhook>> {
    return this.newestCompanyRecords(webhookItem, 'webhook', companyId, page);
  }

  async replaceWebhook(webhook: Webhook, audit?: AuditEntry, asRead?: string): Promise<boolean> {
    // Only while the stored secret is still the one written back: a roll (or an operator's sealing,
    // which keeps `updatedAt`) since the read would otherwise be undone, the new secret shown once
    // and never signed with. And, for a change built on a read, only while every other writer (an
    // edit, a roll, the sender's 410 disable: each sets `updatedAt`) has left it as read.
    const unchanged = {
      condition: `attribute_exists(PK) AND (sealedSecret = :secret OR secret = :secret)${asRead === undefined ? '' : ' AND updatedAt = :read'}`,
      values: { ':secret': webhook.sealedSecret, ...(asRead !== undefined && { ':read': asRead }) },
    };
    if (!audit) {
      return heldCondition(
        this.db.send(
          new PutCommand({ TableName: this.tableName, Item: webhookItem.toItem(webhook), ConditionExpression: unchanged.condition, ExpressionAttributeValues: unchanged.values }),
        ),
      );
    }
    try {
      await withAudit(new MoneyTransaction(this.tableName), audit)
        .put(webhookItem.toItem(webhook), { ...unchanged, onFailed: () => new Missing() })
        .commit(this.db);
      return true;
    } catch (error) {
      if (error instanceof Missing) return false;
      throw error;
    }
  }

  async deleteWebhook(companyId: string, webhookId: string, audit?: AuditEntry): Promise<boolean> {
    try {
      await withAudit(new MoneyTransaction(this.tableName), audit)
        .delete(webhookItem.key(companyId, webhookId), () => new Missing())
        .update(webhookCountItem.key(companyId), { expression: 'ADD #count :minusOne', names: { '#count': 'count' }, values: { ':minusOne': -1 } })
        .commit(this.db);
      return true;
    } catch (error) {
      if (error instanceof Missing) return false;
      throw error;
    }
  }

  // webhooks:seal-secrets (an operator's one-off: the only Scan here).

  async webhooksWithPlainSecrets(): Promise<Webhook[]> {
    const found: Webhook[] = [];
    const scan = (ExclusiveStartKey: Item | undefined) =>
      new ScanCommand({
        TableName: this.tableName,
        FilterExpression: '#type = :webhook AND attribute_exists(secret)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':webhook': webhookItem.type },
        ConsistentRead: true,
        ExclusiveStartKey,
      });
    for await (const items of pagesOf(this.db, scan)) found.push(...items.map(webhookItem.fromItem));
    return found;
  }

  replacePlainSecret(webhook: { companyId: string; id: string }, plain: string, sealed: string): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookItem.key(webhook.companyId, webhook.id),
          UpdateExpression: 'SET sealedSecret = :sealed REMOVE secret',
          ConditionExpression: 'secret = :plain',
          ExpressionAttributeValues: { ':sealed': sealed, ':plain': plain },
        }),
      ),
    );
  }
}

function withAudit(transaction: MoneyTransaction, audit: AuditEntry | undefined): MoneyTransaction {
  return audit ? transaction.create(auditEntryItem.toItem(audit), () => new Error('Audit entry id collision')) : transaction;
}
