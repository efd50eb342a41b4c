import type { OperatorAuditEntry } from '#functions/operations/operator-audit';
import type { Item } from './item.ts';

/** The one owner of a stored `OperatorAuditEntry` (functions/operations/operator-audit.ts): one
 * partition for the stage, newest last by id (ULIDs). Only ever put (`attribute_not_exists`). */
export const operatorAuditEntryItem = {
  type: 'OperatorAuditEntry',
  key: (id: string) => ({ PK: 'OPERATOR_AUDIT', SK: `AUDIT#${id}` }),
  all: () => ({ PK: 'OPERATOR_AUDIT', skPrefix: 'AUDIT#' }),
  toItem: (entry: OperatorAuditEntry): Item => ({ ...operatorAuditEntryItem.key(entry.id), type: operatorAuditEntryItem.type, ...entry }),
  fromItem: (item: Item): OperatorAuditEntry => ({
    id: item.id as string,
    action: item.action as OperatorAuditEntry['action'],
    actor: item.actor as string,
    target: item.target as string,
    details: item.details as Record<string, string>,
    createdAt: item.createdAt as string,
  }),
};
