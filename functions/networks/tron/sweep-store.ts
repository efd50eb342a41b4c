import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Sweep, SweepCandidate, SweepStore } from '#functions/deposits/sweeps';
import type { FrozenAddressList } from '#functions/deposits/frozen-addresses';
import { depositAddressItem } from './items/deposit-address.ts';
import { sweepItem } from './items/sweep.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { sweepOwner } from '#functions/withdrawals/payouts';
import { MoneyTransaction, stale } from './transaction.ts';
import { claimIn } from './transaction-claims.ts';
import { heldCondition, queryAll, readItem } from './queries.ts';
import { HOT_WALLET_NETWORK, type NetworkName } from '#functions/networks/names';

/**
 * One network's deposit addresses marked sweep-due (a confirmed deposit since their last sweep), as
 * its sweeper reads and clears them: TRON's (functions/deposits/sweeps.ts) and each EVM network's
 * (functions/deposits/evm-sweeps.ts). Remembers when each due flag was read, so clearing it never
 * drops a flag set since.
 */
export class DynamoSweepDueList implements FrozenAddressList {
  private readonly dueSince = new Map<string, string>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly network: NetworkName,
  ) {}

  /** At most `limit`, in address order; `after`: only those after that address (the next page). */
  async dueAddresses(limit: number, after?: string): Promise<DueAddress[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: after === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK > :after',
        ExpressionAttributeValues: { ':pk': depositAddressItem.sweepDuePartition(this.network), ...(after !== undefined && { ':after': after }) },
        Limit: limit,
      }),
    );
    return Items.map((item) => {
      const { dueSince, ...due } = depositAddressItem.sweepCandidateFromItem(item);
      this.dueSince.set(due.address, dueSince);
      return due;
    });
  }

  /** Due → set aside (frozen-addresses.ts). Only from the due list: a cleared address stays cleared. */
  async setAside(address: string): Promise<void> {
    const frozen = depositAddressItem.frozen(this.network, address);
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: depositAddressItem.key(address),
          UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
          ConditionExpression: 'GSI1PK = :due',
          ExpressionAttributeValues: { ':pk': frozen.GSI1PK, ':sk': frozen.GSI1SK, ':due': depositAddressItem.sweepDuePartition(this.network) },
        }),
      ),
    );
  }

  async setAsideAddresses(): Promise<string[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': depositAddressItem.frozenPartition(this.network) },
    });
    return items.map(depositAddressItem.addressOf);
  }

  /** Set aside → due, with its due time kept (a confirmation meanwhile may have set a later one). */
  async returnToDue(address: string): Promise<void> {
    const due = depositAddressItem.sweepDue(this.network, address);
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: depositAddressItem.key(address),
          UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, sweepDueSince = if_not_exists(sweepDueSince, :now)',
          ConditionExpression: 'GSI1PK = :frozen',
          ExpressionAttributeValues: { ':pk': due.GSI1PK, ':sk': due.GSI1SK, ':frozen': depositAddressItem.frozenPartition(this.network), ':now': new Date().toISOString() },
        }),
      ),
    );
  }

  async clearDue(address: string, remaining: bigint): Promise<void> {
    const belowMinimum = depositAddressItem.belowMinimum(this.network, address);
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

/** A due address as the list reads it: the deposit it was issued for names an EVM forwarder's salt. */
export interface DueAddress extends SweepCandidate {
  depositId: string;
}

/** TRON's sweeps: its due list, and each address's sweep (one open at a time). */
export class DynamoSweepStore implements SweepStore {
  private readonly due: DynamoSweepDueList;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.due = new DynamoSweepDueList(db, tableName, HOT_WALLET_NETWORK);
  }

  async dueAddresses(limit: number): Promise<SweepCandidate[]> {
    return (await this.due.dueAddresses(limit)).map(({ address, addressIndex }) => ({ address, addressIndex }));
  }

  clearDue(address: string, remaining: bigint): Promise<void> {
    return this.due.clearDue(address, remaining);
  }

  setAside(address: string): Promise<void> {
    return this.due.setAside(address);
  }

  setAsideAddresses(): Promise<string[]> {
    return this.due.setAsideAddresses();
  }

  returnToDue(address: string): Promise<void> {
    return this.due.returnToDue(address);
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
    // Cambio's own books: no company balance moves (ledger.ts tokenFeeEntry).
    if (tokenFee) tx.put(ledgerEntryItem.toItem(tokenFee));
    return tx.commitUnlessStale(this.db);
  }
}
