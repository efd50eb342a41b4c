import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, KeyUseRecorder } from '#functions/api-keys/api-keys';
import type { ApiKeyStore } from '#functions/api-keys/key-management';
import type { AuditEntry } from '#functions/companies/audit-log';
import { notFound } from '#functions/shared/errors';
import { gsi1ItemsUnder, heldCondition, readItem } from './queries.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { apiKeyItem } from './items/company.ts';
import { TableStore } from './table-store.ts';
import { MoneyTransaction } from './transaction.ts';

/** A company's API keys (items/company.ts apiKeyItem): the authorizer and the dashboard read the same item. */
export class DynamoApiKeyStore extends TableStore implements ApiKeyStore, KeyUseRecorder {
  /** Read consistently: a key issued or a secret rolled a moment ago works on the next call, and
   * API Gateway would otherwise cache a stale refusal for the authorizer's TTL. */
  async findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const item = await readItem(this.db, this.tableName, apiKeyItem.key(keyId));
    return item ? apiKeyItem.fromItem(item) : null;
  }

  /** The condition makes concurrent authorizers (and a revoked or deleted key) write nothing more;
   * its failure is the expected outcome of that race, not an error. */
  async recordKeyUse(keyId: string, at: string, staleBefore: string, sourceIp: string | null): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: apiKeyItem.key(keyId),
          UpdateExpression: sourceIp ? 'SET lastUsedAt = :at, lastUsedIp = :ip' : 'SET lastUsedAt = :at REMOVE lastUsedIp',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
          ExpressionAttributeValues: { ':at': at, ':staleBefore': staleBefore, ...(sourceIp && { ':ip': sourceIp }) },
        }),
      ),
    );
  }

  async apiKeysOf(companyId: string): Promise<ApiKeyRecord[]> {
    return (await gsi1ItemsUnder(this.db, this.tableName, apiKeyItem.ofCompany(companyId))).map(apiKeyItem.fromItem);
  }

  async addApiKey(record: ApiKeyRecord, audit: AuditEntry): Promise<void> {
    await this.db.send(new TransactWriteCommand({ TransactItems: [this.putNew(apiKeyItem.toItem(record)), this.putNew(auditEntryItem.toItem(audit))] }));
  }

  async updateApiKey(before: ApiKeyRecord, after: ApiKeyRecord, audit: AuditEntry, alwaysWritten: readonly (keyof ApiKeyRecord)[] = []): Promise<void> {
    // An update, not a put: lastUsedAt belongs to the authorizer and must survive a roll. Only what
    // this change changes is written: a roll that read the key before a concurrent `Edit allowed
    // IPs` (its password check takes a while) must not write the old list back, so dropping the
    // key's restriction; the condition below holds the secret and status only. `status` always, so
    // the update is never empty (the condition keeps it `active` or the change's own).
    const changed = (name: keyof ApiKeyRecord) => alwaysWritten.includes(name) || JSON.stringify(after[name] ?? null) !== JSON.stringify(before[name] ?? null);
    const fields = ['secretHash', 'previousSecretHash', 'previousSecretExpiresAt', 'revokedAt', 'allowedIps'] as const;
    const set = Object.fromEntries([['status', after.status], ...fields.filter(changed).map((name) => [name, after[name]] as const)]);
    const present = Object.entries(set).filter(([, value]) => value !== null);
    const absent = Object.entries(set).filter(([, value]) => value === null);
    const update = [`SET ${present.map(([name]) => `#${name} = :${name}`).join(', ')}`, absent.length ? `REMOVE ${absent.map(([name]) => `#${name}`).join(', ')}` : ''].join(' ');
    await new MoneyTransaction(this.tableName)
      .update(apiKeyItem.key(after.keyId), {
        expression: update,
        // A key stored with no status attribute is active.
        condition: 'secretHash = :beforeHash AND (attribute_not_exists(#status) OR #status = :active) AND companyId = :companyId',
        names: Object.fromEntries(Object.keys(set).map((name) => [`#${name}`, name])),
        values: {
          ...Object.fromEntries(present.map(([name, value]) => [`:${name}`, value])),
          ':beforeHash': before.secretHash,
          ':active': 'active',
          ':companyId': before.companyId,
        },
        onFailed: () => notFound('API key'),
      })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commit(this.db);
  }
}
