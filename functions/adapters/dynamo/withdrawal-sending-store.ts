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

  /** A TRON transaction's id may be another payout's too (payouts.ts): each is claimed. An EVM
   * transaction's place is its nonce, claimed when it is allocated (functions/networks/evm/sending-store.ts). */
  protected readonly claimsTransactionIds: boolean = true;

  /** The index may lag: the write is guarded by the status, updatedAt and transaction hash that
   * were read (an EVM payout's replacement changes its hash alone). */
  async transition(before: Withdrawal, after: Withdrawal, change: WithdrawalChange): Promise<boolean> {
    const tx = new MoneyTransaction(this.tableName).put(withdrawalItem.toItem(after), {
      condition: `#status = :status AND updatedAt = :updatedAt${before.txHash === null ? '' : ' AND txHash = :txHash'}`,
      names: { '#status': 'status' },
      values: { ':status': before.status, ':updatedAt': before.updatedAt, ...(before.txHash !== null && { ':txHash': before.txHash }) },
      onFailed: stale,
    });
    if (this.claimsTransactionIds && after.txHash && after.txHash !== before.txHash) claimIn(tx, after.txHash, withdrawalOwner(after.id), after.updatedAt);
    if (change.entry) tx.ledger(change.entry, () => new Error(`Locked balance below withdrawal ${before.id}: the ledger is inconsistent`));
    if (change.event) tx.event(change.event);
    if (change.limitRelease) releaseFromDay(tx, before.companyId, change.limitRelease.day, change.limitRelease.amount);
    return tx.commitUnlessStale(this.db);
  }
}
