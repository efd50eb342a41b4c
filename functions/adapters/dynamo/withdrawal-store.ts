import type { Alongside } from '#functions/shared/alongside';
import { insufficientBalance } from '#functions/shared/errors';
import type { LedgerEntry } from '#functions/ledger/ledger';
import type { Withdrawal, WithdrawalStore } from '#functions/withdrawals/withdrawals';
import { MoneyTransaction } from './transaction.ts';
import { existingReference, referenceHolder } from './refusals.ts';
import { withdrawalItem, withdrawalReferenceItem } from './items/withdrawal.ts';
import { TableStore } from './table-store.ts';
import type { GuardedWrite, WithdrawalGuards } from '#functions/withdrawals/withdrawal-policy';
import type { AuditEntry } from '#functions/companies/audit-log';
import { auditEntryItem } from './items/audit-entry.ts';
import { allowlistReader, underGuard } from './withdrawal-allowlist-store.ts';
import { limitReader, withinLimit } from './withdrawal-limit-store.ts';
import { withDestinationLists } from './destination-lists.ts';
import type { NetworkName } from '#functions/networks/names';

/** Withdrawals, with the lists a destination is checked against (destination-lists.ts). */
export class DynamoWithdrawalStore extends withDestinationLists(TableStore) implements WithdrawalStore {
  async createWithdrawal(withdrawal: Withdrawal, hold: LedgerEntry, guards: WithdrawalGuards, audit?: AuditEntry, alongside?: Alongside): Promise<GuardedWrite> {
    const guarded = underGuard(new MoneyTransaction(this.tableName), withdrawal.companyId, guards.allowlist);
    const transaction = withinLimit(guarded, withdrawal.companyId, guards.limit)
      .create(withdrawalReferenceItem.toItem(withdrawal), () => existingReference(this.db, this.tableName, withdrawalReferenceItem, withdrawal, 'withdrawal'))
      .create(withdrawalItem.toItem(withdrawal), () => new Error('Withdrawal id collision'))
      .ledger(hold, insufficientBalance)
      .alongside(alongside);
    if (audit) transaction.create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`));
    return transaction.commitOrAnswer<GuardedWrite>(this.db);
  }

  allowlistFor(companyId: string, network: NetworkName, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, network, address);
  }

  limitFor(companyId: string, day: string) {
    return limitReader(this.db, this.tableName).limitFor(companyId, day);
  }

  async getWithdrawal(companyId: string, withdrawalId: string): Promise<Withdrawal | null> {
    return this.companyRecordById(withdrawalItem, companyId, withdrawalId);
  }

  async withdrawalIdByReference(companyId: string, reference: string): Promise<string | null> {
    return referenceHolder(this.db, this.tableName, withdrawalReferenceItem, companyId, reference);
  }
}
