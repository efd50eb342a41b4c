import { send } from './client.ts';
import type { AuditEntry } from './types.ts';

/** Audit log: newest first, a page at a time. */
export const auditLogApi = {
  auditLog: (companyId: string, cursor?: string) =>
    send<AuditEntry[]>('GET', `/companies/${companyId}/audit-log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),
};
