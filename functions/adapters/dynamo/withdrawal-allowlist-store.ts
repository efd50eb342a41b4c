import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import { MAX_ALLOWED_ADDRESSES, type AllowlistStore } from '#functions/withdrawals/withdrawal-allowlist';
import { allowsOn, type AllowedAddress, type AllowlistGuard, type AllowlistReader, type WithdrawalAllowlist } from '#functions/withdrawals/withdrawal-policy';
import { DynamoCompanyStore } from './company-store.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { allowedAddressItem, withdrawalAllowlistItem } from './items/withdrawal-allowlist.ts';
import { itemsUnder, readItem } from './queries.ts';
import { answer, MoneyTransaction } from './transaction.ts';
import { withDestinationLists } from './destination-lists.ts';
import type { NetworkName } from '#functions/networks/names';

/** Whether an entry added without a network, at `address`, would allow `network` (withdrawal-policy.ts
 * allowsOn): then its key is read, and kept free, beside the network's own. */
const oldEntryAllows = (network: NetworkName, address: string) => allowsOn({ network: null, address }) === network;

/** What /v1 reads before money leaves for `address` (canonical on `network`): the allowlist's switch
 * and the address's entry on the network, read consistently (an address removed a moment ago is
 * gone); on TRON also its entry from before entries named a network, which allows TRON. */
export function allowlistReader(db: DynamoDBDocumentClient, tableName: string): AllowlistReader {
  return {
    async allowlistFor(companyId: string, network: NetworkName, address: string) {
      const [allowlist, entry, oldEntry] = await Promise.all([
        readItem(db, tableName, withdrawalAllowlistItem.key(companyId)),
        readItem(db, tableName, allowedAddressItem.entryKey(companyId, network, address)),
        oldEntryAllows(network, address) ? readItem(db, tableName, allowedAddressItem.entryKey(companyId, null, address)) : null,
      ]);
      const found = entry ?? oldEntry;
      return { allowlist: withdrawalAllowlistItem.fromItem(allowlist), entry: found ? allowedAddressItem.fromItem(found) : null };
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
  return transaction.check(allowedAddressItem.entryKey(companyId, guard.entry.network, guard.entry.address), {
    condition: 'activeFrom = :activeFrom',
    values: { ':activeFrom': guard.entry.activeFrom },
    onFailed: answer('allowlist'),
  });
}

/** The Integrations page's withdrawal allowlist: each change with its audit entry, in one transaction;
 * an entry is checked against the lists every destination is (destination-lists.ts). */
export class DynamoAllowlistStore extends withDestinationLists(DynamoCompanyStore) implements AllowlistStore {
  allowlistFor(companyId: string, network: NetworkName, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, network, address);
  }

  async allowlistOf(companyId: string): Promise<{ allowlist: WithdrawalAllowlist; addresses: AllowedAddress[] }> {
    const [allowlist, addresses] = await Promise.all([
      readItem(this.db, this.tableName, withdrawalAllowlistItem.key(companyId)),
      itemsUnder(this.db, this.tableName, allowedAddressItem.ofCompany(companyId)),
    ]);
    return { allowlist: withdrawalAllowlistItem.fromItem(allowlist), addresses: addresses.map(allowedAddressItem.fromItem) };
  }

  async addAddress(entry: AllowedAddress, audit: AuditEntry): Promise<'added' | 'full' | 'listed'> {
    const transaction = new MoneyTransaction(this.tableName)
      // The count's conditional ADD, in the same transaction, is what holds the cap under concurrent adds.
      .update(withdrawalAllowlistItem.key(entry.companyId), {
        expression: 'SET #type = :type, companyId = :companyId ADD addressCount :one',
        condition: 'attribute_not_exists(addressCount) OR addressCount < :limit',
        names: { '#type': 'type' },
        values: { ':type': withdrawalAllowlistItem.type, ':companyId': entry.companyId, ':one': 1, ':limit': MAX_ALLOWED_ADDRESSES },
        onFailed: answer('full'),
      })
      .create(allowedAddressItem.toItem(entry), answer('listed'))
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`));
    // The address's entry from before entries named a network, where it allows this one, is the same entry.
    if (entry.network !== null && oldEntryAllows(entry.network, entry.address)) {
      transaction.check(allowedAddressItem.entryKey(entry.companyId, null, entry.address), { condition: 'attribute_not_exists(PK)', onFailed: answer('listed') });
    }
    const written = await transaction.commitOrAnswer<'full' | 'listed'>(this.db);
    return written === 'written' ? 'added' : written;
  }

  async removeAddress(companyId: string, network: NetworkName | null, address: string, audit: AuditEntry): Promise<'removed' | 'not-listed'> {
    const remove = (entryNetwork: NetworkName | null) =>
      new MoneyTransaction(this.tableName)
        .delete(allowedAddressItem.entryKey(companyId, entryNetwork, address), answer('not-listed'))
        .update(withdrawalAllowlistItem.key(companyId), { expression: 'ADD addressCount :minusOne', values: { ':minusOne': -1 } })
        .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
        .commitOrAnswer<'not-listed'>(this.db);
    let written = await remove(network);
    // TRON's entry may be one from before entries named a network (the page shows it as TRON's).
    if (written === 'not-listed' && network !== null && oldEntryAllows(network, address)) written = await remove(null);
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
