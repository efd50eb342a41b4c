import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '#functions/shared/pagination';
import type { AuditEntry, AuditLogStore } from '#functions/companies/audit-log';
import { auditEntryItem } from './items/audit-entry.ts';
import { TableStore } from './table-store.ts';

/** A company's audit log (items/audit-entry.ts). An entry about a change is written in that change's
 * transaction by the change's own store; this writes the entries about no change of their own. */
export class DynamoAuditLogStore extends TableStore implements AuditLogStore {
  /** One conditional put per entry: a new id never overwrites an entry (the log is append-only). */
  async appendAudit(entries: AuditEntry[]): Promise<void> {
    await Promise.all(entries.map((entry) => this.db.send(new PutCommand(this.putNew(auditEntryItem.toItem(entry)).Put))));
  }

  async auditPage(companyId: string, page: PageRequest): Promise<Page<AuditEntry>> {
    return this.newestCompanyRecords(auditEntryItem, 'auditEntry', companyId, page);
  }
}
