import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NetworkName } from '#functions/networks/names';
import type { WithdrawalChange, WithdrawalSendingStore } from '#functions/withdrawals/withdrawal-sending';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { withdrawalOwner } from '#functions/withdrawals/payouts';
import { MoneyTransaction, stale } from './transaction.ts';
import { claimIn } from './transaction-claims.ts';
import { withdrawalItem } from './items/withdrawal.ts';
import { TableStore } from './table-store.ts';
import { releaseFromDay } from './withdrawal-limit-store.ts';
import { screeningListOf } from './screening-store.ts';

/**
 * The condition that the stored withdrawal is still the version `before` was read from: its status,
 * updatedAt and transaction hash, and the hash of its nonce filler when it has one. A fee
 * replacement keeps updatedAt (the stuck alarm's age) and changes the hash alone, a filler's
 * replacement the filler's hash alone: a copy read before either is refused, so it can never
 * write back over a version that may have landed and drop that version's hash.
 */
export function asRead(before: Withdrawal): { condition: string; names: Record<string, string>; values: Record<string, unknown> } {
  const filler = before.transaction?.filler;
  return {
    condition: [
      '#status = :status AND updatedAt = :updatedAt',
      ...(before.txHash === null ? [] : ['txHash = :txHash']),
      ...(filler ? ['#transaction.#filler.txHash = :fillerTxHash'] : []),
    ].join(' AND '),
    names: { '#status': 'status', ...(filler && { '#transaction': 'transaction', '#filler': 'filler' }) },
    values: {
      ':status': before.status,
      ':updatedAt': before.updatedAt,
      ...(before.txHash !== null && { ':txHash': before.txHash }),
      ...(filler && { ':fillerTxHash': filler.txHash }),
    },
  };
}

/** One network's sending: its withdrawals alone, so no sender ever takes another network's payout. */
export class DynamoWithdrawalSendingStore extends TableStore implements WithdrawalSendingStore {
  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    private readonly network: NetworkName,
  ) {
    super(db, tableName);
  }

  async withdrawalsInStatus(status: 'pending' | 'processing', limit: number, afterId?: string): Promise<Withdrawal[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: afterId === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK > :after',
        ExpressionAttributeValues: { ':pk': withdrawalItem.byStatus(this.network, status, '').GSI1PK, ...(afterId === undefined ? {} : { ':after': withdrawalItem.byStatus(this.network, status, afterId).GSI1SK }) },
        Limit: limit,
      }),
    );
    return Items.map(withdrawalItem.fromItem);
  }

  /** The screening list a pending withdrawal's destination is looked up in again before it is signed. */
  listed(network: NetworkName, addresses: string[], options?: { fresh?: boolean }): Promise<Set<string>> {
    return screeningListOf(this.db, this.tableName).listed(network, addresses, options);
  }

  /** A TRON transaction's id may be another payout's too (payouts.ts): each is claimed. An EVM
   * transaction's place is its nonce, claimed when it is allocated (functions/networks/evm/sending-store.ts). */
  protected readonly claimsTransactionIds: boolean = true;

  /** The index may lag: the write is guarded by the version that was read (asRead). */
  async transition(before: Withdrawal, after: Withdrawal, change: WithdrawalChange): Promise<boolean> {
    const tx = new MoneyTransaction(this.tableName).put(withdrawalItem.toItem(after), { ...asRead(before), onFailed: stale });
    if (this.claimsTransactionIds && after.txHash && after.txHash !== before.txHash) claimIn(tx, after.txHash, withdrawalOwner(after.id), after.updatedAt);
    if (change.entry) tx.ledger(change.entry, () => new Error(`Locked balance below withdrawal ${before.id}: the ledger is inconsistent`));
    if (change.event) tx.event(change.event);
    if (change.limitRelease) releaseFromDay(tx, before.companyId, change.limitRelease.day, change.limitRelease.amount);
    return tx.commitUnlessStale(this.db);
  }
}
