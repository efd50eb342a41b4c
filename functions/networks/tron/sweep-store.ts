import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { stepTxHash, type Sweep, type SweepCandidate, type SweepStore } from './sweeps.ts';
import { SweepStoreOverDueList } from '../../adapters/dynamo/sweep-due-list.ts';
import { sweepItem } from './sweep-record.ts';
import { ledgerEntryItem } from '../../adapters/dynamo/items/ledger-entry.ts';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { SWEEP_STEPS, sweepOwner } from '#functions/withdrawals/payouts';
import { MoneyTransaction, stale } from '../../adapters/dynamo/transaction.ts';
import { claimIn } from '../../adapters/dynamo/transaction-claims.ts';
import { readItem } from '../../adapters/dynamo/queries.ts';
import { depositAddressCounts, depositAddressItem } from '../../adapters/dynamo/items/deposit-address.ts';

/** TRON's sweeps: its due list, and each address's sweep (one open at a time). */
export class DynamoSweepStore extends SweepStoreOverDueList implements SweepStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, 'tron');
  }

  dueAddresses(limit: number, after?: string): Promise<{ due: SweepCandidate[]; next: string | null }> {
    return this.duePage(limit, after, ({ address, addressIndex }) => ({ address, addressIndex }));
  }

  async openSweep(address: string): Promise<Sweep | null> {
    const item = await readItem(this.db, this.tableName, sweepItem.open(address));
    return item ? sweepItem.fromItem(item) : null;
  }

  async finishedSweeps(address: string, limit: number): Promise<Sweep[]> {
    const { PK, skPrefix } = sweepItem.finishedOf(address);
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': PK, ':prefix': skPrefix },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return Items.map(sweepItem.fromItem);
  }

  async saveSweep(before: Sweep | null, after: Sweep, tokenFee?: LedgerEntry | null): Promise<boolean> {
    const open = sweepItem.open(after.address);
    // A reclaim signed again keeps the status: its hash tells a copy read before it.
    const reclaim = before?.reclaimTxHash;
    const guard = before
      ? { condition: `#status = :status${reclaim ? ' AND reclaimTxHash = :reclaim' : ''}`, names: { '#status': 'status' }, values: { ':status': before.status, ...(reclaim && { ':reclaim': reclaim }) }, onFailed: stale }
      : { condition: 'attribute_not_exists(PK)', onFailed: stale };
    const tx = new MoneyTransaction(this.tableName);
    // The guard on the sweep goes first, so a stale sweep reads as stale, not as a taken id.
    // Each step's transaction id `after` carries that `before` did not.
    const claims = SWEEP_STEPS.flatMap((step) => {
      const txId = stepTxHash(after, step);
      return txId && txId !== (before && stepTxHash(before, step)) ? [[txId, step] as const] : [];
    });
    if (sweepItem.isFinished(after)) {
      // Finished: it moves to the address's history, and the address may be swept again.
      tx.deleteWhere(open, guard).put(sweepItem.toItem(after));
    } else {
      tx.put(sweepItem.toItem(after), guard);
    }
    for (const [txId, step] of claims) claimIn(tx, txId, sweepOwner(after.address, after.createdAt, step), after.updatedAt);
    // Its transfer landed: what it moved comes off the address's counts in the same write, once
    // (a sweep leaves `sweeping` once), so a payment landed there since stays until it is recorded.
    if (before?.status === 'sweeping' && after.status !== 'sweeping' && after.status !== 'failed' && after.takenOffCounts) {
      const swept = depositAddressCounts.sweptOff(after.takenOffCounts);
      tx.update(depositAddressItem.key(after.address), { expression: swept.clause, values: swept.values });
    }
    // Cambio's own books: no company balance moves (ledger.ts tokenFeeEntry).
    if (tokenFee) tx.put(ledgerEntryItem.toItem(tokenFee));
    return tx.commitUnlessStale(this.db);
  }
}
