import type { AuditEntry } from '#functions/companies/audit-log';
import { companyRecord, storedFields, type Item } from './item.ts';

/** The one owner of a stored `AuditEntry`: a company's audit log, newest first (ids are ULIDs). */
export const auditEntryItem = {
  ...companyRecord('AuditEntry', 'AUDIT#'),
  toItem: (entry: AuditEntry): Item => ({ ...auditEntryItem.head(entry.companyId, entry.id), ...entry }),
  fromItem: (item: Item): AuditEntry =>
    storedFields<AuditEntry>(item, ['id', 'companyId', 'action', 'actor', 'target', 'details', 'sourceIp', 'userAgent', 'createdAt']),
};
