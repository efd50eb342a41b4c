import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { TwoFactorMarks, TwoFactorRequirement, TwoFactorRequirementStore } from '#functions/people/two-factor';
import { auditEntryItem } from './items/audit-entry.ts';
import { twoFactorMarkItem, twoFactorRequirementItem } from './items/two-factor.ts';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** A person's two-factor mark and a company's two-factor rule (items/two-factor.ts). */
export class DynamoTwoFactorStore extends TableStore implements TwoFactorMarks, TwoFactorRequirementStore {
  async markTwoFactorOn(personId: string, since: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: twoFactorMarkItem.toItem(personId, since) }));
  }

  async markTwoFactorOff(personId: string, audit: AuditEntry[]): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [{ Delete: { TableName: this.tableName, Key: twoFactorMarkItem.key(personId) } }, ...audit.map((entry) => this.putNew(auditEntryItem.toItem(entry)))],
      }),
    );
  }

  async markReplacementBegun(personId: string, at: string): Promise<void> {
    await this.db.send(new UpdateCommand({ TableName: this.tableName, ...twoFactorMarkItem.replacementBegun(personId, at) }));
  }

  async replacementBegunAt(personId: string): Promise<string | null> {
    return twoFactorMarkItem.replacementBegunAt(await readItem(this.db, this.tableName, twoFactorMarkItem.key(personId)));
  }

  async isTwoFactorOn(personId: string): Promise<boolean> {
    return (await readItem(this.db, this.tableName, twoFactorMarkItem.key(personId))) !== null;
  }

  async setTwoFactorRequirement(companyId: string, requirement: TwoFactorRequirement, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: this.tableName, Item: twoFactorRequirementItem.toItem(companyId, requirement) } }, this.putNew(auditEntryItem.toItem(audit))],
      }),
    );
  }
}
