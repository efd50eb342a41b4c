import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Sweep, SweepCandidate, SweepStore } from '#functions/deposits/sweeps';
import { depositAddressItem } from './items/deposit-address.ts';
import { sweepItem } from './items/sweep.ts';
import { sweepOwner } from '#functions/withdrawals/payouts';
import { MoneyTransaction, stale } from './transaction.ts';
import { claimIn } from './transaction-claims.ts';
import { heldCondition, readItem } from './queries.ts';
import { HOT_WALLET_NETWORK } from '#functions/networks/names';

/** The sweeper's network: TRON's deposit addresses are swept with their own keys (functions/deposits/sweeps.ts);
 * EVM forwarders wait in their own partitions for a sweep through their factory. */
const SWEPT_NETWORK = HOT_WALLET_NETWORK;

/** Remembers when each due flag was read, so clearing it never drops a flag set since. */
export class DynamoSweepStore implements SweepStore {
  private readonly dueSince = new Map<string, string>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async dueAddresses(limit: number): Promise<SweepCandidate[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': depositAddressItem.sweepDuePartition(SWEPT_NETWORK) },
        Limit: limit,
      }),
    );
    return Items.map((item) => {
      const { address, addressIndex, dueSince } = depositAddressItem.sweepCandidateFromItem(item);
      this.dueSince.set(address, dueSince);
      return { address, addressIndex };
    });
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

  async saveSweep(before: Sweep | null, after: Sweep): Promise<boolean> {
    const open = sweepItem.open(after.address);
    const guard = before
      ? { condition: '#status = :status', names: { '#status': 'status' }, values: { ':status': before.status }, onFailed: stale }
      : { condition: 'attribute_not_exists(PK)', onFailed: stale };
    const tx = new MoneyTransaction(this.tableName);
    // The guard on the sweep goes first, so a stale sweep reads as stale, not as a taken id.
    const claims: [string, 'top-up' | 'sweep'][] = [];
    if (after.topUpTxHash && after.topUpTxHash !== before?.topUpTxHash) claims.push([after.topUpTxHash, 'top-up']);
    if (after.sweepTxHash && after.sweepTxHash !== before?.sweepTxHash) claims.push([after.sweepTxHash, 'sweep']);
    if (sweepItem.isFinished(after)) {
      // Finished: it moves to the address's history, and the address may be swept again.
      tx.deleteWhere(open, guard).put(sweepItem.toItem(after));
    } else {
      tx.put(sweepItem.toItem(after), guard);
    }
    for (const [txId, step] of claims) claimIn(tx, txId, sweepOwner(after.address, after.createdAt, step), after.updatedAt);
    return tx.commitUnlessStale(this.db);
  }

  async clearDue(address: string, remaining: bigint): Promise<void> {
    const belowMinimum = depositAddressItem.belowMinimum(SWEPT_NETWORK, address);
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: depositAddressItem.key(address),
          // A confirmation moves the item back to sweepDue (deposit-chain-store); a sweep that
          // empties the address removes it from both partitions.
          UpdateExpression:
            remaining > 0n
              ? 'SET GSI1PK = :pk, GSI1SK = :sk, unsweptUsdt = :remaining REMOVE sweepDueSince'
              : 'REMOVE GSI1PK, GSI1SK, sweepDueSince, unsweptUsdt',
          ConditionExpression: 'sweepDueSince = :seen',
          ExpressionAttributeValues: {
            ':seen': this.dueSince.get(address) ?? '',
            ...(remaining > 0n && { ':pk': belowMinimum.GSI1PK, ':sk': belowMinimum.GSI1SK, ':remaining': remaining }),
          },
        }),
      ),
    );
  }
}
