import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import { MAX_ALLOWED_ADDRESSES, type AllowlistStore } from '#functions/withdrawals/withdrawal-allowlist';
import type { AllowedAddress, AllowlistGuard, AllowlistReader, WithdrawalAllowlist } from '#functions/withdrawals/withdrawal-policy';
import { DynamoCompanyStore } from './company-store.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { allowedAddressItem, withdrawalAllowlistItem } from './items/withdrawal-allowlist.ts';
import { itemsUnder, readItem } from './queries.ts';
import { answer, MoneyTransaction } from './transaction.ts';
import { screeningListOf } from './screening-store.ts';
import type { NetworkName } from '#functions/networks/names';

/** What /v1 reads before money leaves for `address`: the allowlist's switch and that one address,
 * both read consistently (an address removed a moment ago is gone). */
export function allowlistReader(db: DynamoDBDocumentClient, tableName: string): AllowlistReader {
  return {
    async allowlistFor(companyId: string, address: string) {
      const [allowlist, entry] = await Promise.all([
        readItem(db, tableName, withdrawalAllowlistItem.key(companyId)),
        readItem(db, tableName, allowedAddressItem.key(companyId, address)),
      ]);
      return { allowlist: withdrawalAllowlistItem.fromItem(allowlist), entry: entry ? allowedAddressItem.fromItem(entry) : null };
    },
  };
}

/** The allowlist's guard (withdrawal-policy.ts AllowlistGuard) in the transaction that moves the
 * money: a condition on the allowlist's item that it does not hold, or on the address's item that
 * it is still on the list as read; found false, it answers 'allowlist' (MoneyTransaction.commitOrAnswer).
 * A ConditionCheck writes nothing, so concurrent withdrawals of a company do not conflict on it. */
export function underGuard(transaction: MoneyTransaction, companyId: string, guard: AllowlistGuard | null): MoneyTransaction {
  if (!guard) return transaction;
  if (!guard.holds) {
    return transaction.check(withdrawalAllowlistItem.key(companyId), {
      condition: 'attribute_not_exists(enabled) OR enabled = :off OR offFrom <= :now',
      values: { ':off': false, ':now': guard.at },
      onFailed: answer('allowlist'),
    });
  }
  return transaction.check(allowedAddressItem.key(companyId, guard.entry.address), {
    condition: 'activeFrom = :activeFrom',
    values: { ':activeFrom': guard.entry.activeFrom },
    onFailed: answer('allowlist'),
  });
}

/** The Integrations page's withdrawal allowlist: each change with its audit entry, in one transaction. */
export class DynamoAllowlistStore extends DynamoCompanyStore implements AllowlistStore {
  async allowlistFor(companyId: string, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, address);
  }

  /** The table's screening list, with the container's cache (screening-store.ts): a sanctioned address is never allowed. */
  listed(network: NetworkName, addresses: string[]) {
    return screeningListOf(this.db, this.tableName).listed(network, addresses);
  }

  async allowlistOf(companyId: string): Promise<{ allowlist: WithdrawalAllowlist; addresses: AllowedAddress[] }> {
    const [allowlist, addresses] = await Promise.all([
      readItem(this.db, this.tableName, withdrawalAllowlistItem.key(companyId)),
      itemsUnder(this.db, this.tableName, allowedAddressItem.ofCompany(companyId)),
    ]);
    return { allowlist: withdrawalAllowlistItem.fromItem(allowlist), addresses: addresses.map(allowedAddressItem.fromItem) };
  }

  async addAddress(entry: AllowedAddress, audit: AuditEntry): Promise<'added' | 'full' | 'listed'> {
    const written = await new MoneyTransaction(this.tableName)
      // The count's conditional ADD, in the same transaction, is what holds the cap under concurrent adds.
      .update(withdrawalAllowlistItem.key(entry.companyId), {
        expression: 'SET #type = :type, companyId = :companyId ADD addressCount :one',
        condition: 'attribute_not_exists(addressCount) OR addressCount < :limit',
        names: { '#type': 'type' },
        values: { ':type': withdrawalAllowlistItem.type, ':companyId': entry.companyId, ':one': 1, ':limit': MAX_ALLOWED_ADDRESSES },
        onFailed: answer('full'),
      })
      .create(allowedAddressItem.toItem(entry), answer('listed'))
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commitOrAnswer<'full' | 'listed'>(this.db);
    return written === 'written' ? 'added' : written;
  }

  async removeAddress(companyId: string, address: string, audit: AuditEntry): Promise<'removed' | 'not-listed'> {
    const written = await new MoneyTransaction(this.tableName)
      .delete(allowedAddressItem.key(companyId, address), answer('not-listed'))
      .update(withdrawalAllowlistItem.key(companyId), { expression: 'ADD addressCount :minusOne', values: { ':minusOne': -1 } })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commitOrAnswer<'not-listed'>(this.db);
    return written === 'written' ? 'removed' : written;
  }

  async setAllowlist(companyId: string, allowlist: Pick<WithdrawalAllowlist, 'enabled' | 'offFrom'>, audit: AuditEntry): Promise<void> {
    await new MoneyTransaction(this.tableName)
      .update(withdrawalAllowlistItem.key(companyId), {
        expression: `SET #type = :type, companyId = :companyId, enabled = :enabled${allowlist.offFrom ? ', offFrom = :offFrom' : ' REMOVE offFrom'}`,
        names: { '#type': 'type' },
        values: {
          ':type': withdrawalAllowlistItem.type,
          ':companyId': companyId,
          ':enabled': allowlist.enabled,
          ...(allowlist.offFrom && { ':offFrom': allowlist.offFrom }),
        },
      })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commit(this.db);
  }
}
