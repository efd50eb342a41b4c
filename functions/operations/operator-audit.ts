import { newId } from '../shared/ids.ts';

/**
 * What Cambio's own operators did to the stage itself, apart from any company (a company's actions
 * are in its audit log, functions/companies/audit-log.ts, shown on its dashboard): who, when, what
 * and why. Like a company's, an entry is only ever appended, in the same transaction as the change
 * it tells of, and nothing updates or deletes it. Read with a Query of its partition
 * (docs/data-model.md, `OperatorAuditEntry`).
 */
export type OperatorAction = 'screening.imported' | 'screening.added' | 'screening.removed' | 'float.recorded' | 'events.redelivered';

export interface OperatorAuditEntry {
  id: string;
  action: OperatorAction;
  /** Who: the operator's account on the machine that ran the command (`alice@ops-laptop`), or the
   * job (`job:screening-refresh`). In AWS, CloudTrail holds the IAM identity behind the write. */
  actor: string;
  /** What was acted on: an address, a file or URL, a company (whose events were sent again). */
  target: string;
  /** What changed and why (a stage entry's reason, an import's counts). Strings only. */
  details: Record<string, string>;
  createdAt: string;
}

export function operatorAuditEntry(action: OperatorAction, actor: string, target: string, details: Record<string, string>, now: Date): OperatorAuditEntry {
  return { id: newId('auditEntry', now.getTime()), action, actor, target, details, createdAt: now.toISOString() };
}
