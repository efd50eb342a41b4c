import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FloatStore, HotWalletFloat } from '#functions/ledger/floats';
import type { LedgerEntry } from '#functions/ledger/ledger';
import type { OperatorAuditEntry } from '#functions/operations/operator-audit';
import { hotWalletFloatItem } from './items/hot-wallet-float.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import { operatorAuditEntryItem } from './items/operator-audit-entry.ts';
import { answer, MoneyTransaction } from './transaction.ts';

/** Hot wallets' floats: each one's item, its ledger entry and the operator's audit entry (when an
 * operator recorded it) in one transaction (no company balance moves: the entry is in Cambio's own books). */
export class DynamoFloatStore implements FloatStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(float: HotWalletFloat, entry: LedgerEntry, audit: OperatorAuditEntry | null = null): Promise<'recorded' | 'already_recorded'> {
    const transaction = new MoneyTransaction(this.tableName)
      .create(hotWalletFloatItem.toItem(float, entry.id, entry.createdAt), answer('already_recorded'))
      .put(ledgerEntryItem.toItem(entry));
    if (audit) transaction.create(operatorAuditEntryItem.toItem(audit), () => new Error(`Operator audit entry ${audit.id} exists`));
    const outcome = await transaction.commitOrAnswer<'already_recorded'>(this.db);
    return outcome === 'written' ? 'recorded' : outcome;
  }
}
