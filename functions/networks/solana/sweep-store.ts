import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DueOwner, ReclaimCursor, SolanaSweep, SolanaSweepStore } from './sweep-types.ts';
import type { ListedDepositAddress } from '../../deposits/deposit-address-filter.ts';
import { SweepStoreOverDueList } from '../../adapters/dynamo/sweep-due-list.ts';
import { answer, MoneyTransaction, stale } from '../../adapters/dynamo/transaction.ts';
import { claimIn } from '../../adapters/dynamo/transaction-claims.ts';
import { batchGetAll, itemsUnder, readItem } from '../../adapters/dynamo/queries.ts';
import { depositItem } from '../../adapters/dynamo/items/deposit.ts';
import type { DepositStatus } from '../../deposits/deposits.ts';
import { depositAddressesListedAfter, depositAddressesListedSince } from '../../adapters/dynamo/deposit-address-listing.ts';
import { reclaimCursorItem, solanaSweepItem, solanaSweepOwner } from './sweep-record.ts';

/** A deposit still to be paid or made final: its address's account is worth opening. */
const IN_PROGRESS = new Set<DepositStatus>(['awaiting_payment', 'confirming']);

/** Solana's sweeps: its due list (the deposit addresses, their owners), its sweeps, and the marks
 * that keep each address in one open sweep at most. */
export class DynamoSolanaSweepStore extends SweepStoreOverDueList implements SolanaSweepStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, 'solana');
  }

  dueAddresses(limit: number, after?: string): Promise<{ due: DueOwner[]; next: string | null }> {
    return this.duePage(limit, after, ({ address, addressIndex }) => ({ address, addressIndex }));
  }

  async openSweeps(): Promise<SolanaSweep[]> {
    return (await itemsUnder(this.db, this.tableName, solanaSweepItem.openOf())).map(solanaSweepItem.fromItem);
  }

  /** Finished sweeps, oldest first: the record reconciliation and finance read. */
  async finishedSweeps(): Promise<SolanaSweep[]> {
    return (await itemsUnder(this.db, this.tableName, solanaSweepItem.finishedOf())).map(solanaSweepItem.fromItem);
  }

  /**
   * One transaction: a mark per address the sweep moves (refused if any is in another open sweep:
   * 'address-taken', nothing written), the sweep, and its signature claimed for it. Two sweepers
   * that read the same addresses on the same blockhash sign the same transaction (Ed25519 signs
   * deterministically), so the same sweep: the second finds it taken too.
   */
  storeSweep(sweep: SolanaSweep): Promise<'written' | 'address-taken'> {
    const tx = new MoneyTransaction(this.tableName);
    for (const account of sweep.accounts) tx.create(solanaSweepItem.addressToItem(account.owner, sweep.id, sweep.createdAt), answer('address-taken'));
    tx.create(solanaSweepItem.toItem(sweep), answer('address-taken'));
    claimIn(tx, sweep.signature, solanaSweepOwner(sweep.id, sweep.createdAt), sweep.createdAt);
    return tx.commitOrAnswer<'address-taken'>(this.db);
  }

  /**
   * Writes `after` if the sweep is still as `before` (status and updatedAt): a new version's
   * signature is claimed in the same write; a finished sweep moves to the history and its
   * addresses' marks go, so they may be swept again.
   */
  saveSweep(before: SolanaSweep, after: SolanaSweep): Promise<boolean> {
    const guard = { condition: '#status = :status AND updatedAt = :updatedAt', names: { '#status': 'status' }, values: { ':status': before.status, ':updatedAt': before.updatedAt }, onFailed: stale };
    const tx = new MoneyTransaction(this.tableName);
    if (solanaSweepItem.isFinished(after)) {
      tx.deleteWhere(solanaSweepItem.open(before.id), guard).put(solanaSweepItem.toItem(after));
      for (const account of before.accounts) {
        // Only its own mark: one that is gone (removed by hand) does not keep the sweep from finishing.
        tx.deleteWhere(solanaSweepItem.address(account.owner), { condition: 'attribute_not_exists(PK) OR sweepId = :id', values: { ':id': before.id }, onFailed: stale });
      }
    } else {
      tx.put(solanaSweepItem.toItem(after), guard);
    }
    // A new version's signature is claimed; one of its own earlier versions (settled by the one that
    // landed) was claimed when it was signed.
    const versions = [before.signature, ...before.earlierSignatures];
    if (!versions.includes(after.signature)) claimIn(tx, after.signature, solanaSweepOwner(after.id, after.createdAt), after.updatedAt);
    return tx.commitUnlessStale(this.db);
  }

  depositAddressesListed(since: string): Promise<ListedDepositAddress[]> {
    return depositAddressesListedSince(this.db, this.tableName, since);
  }

  listedAddressesAfter(after: string | null, before: string, limit: number): Promise<{ address: string; sortKey: string }[]> {
    return depositAddressesListedAfter(this.db, this.tableName, after, before, limit);
  }

  async depositsInProgress(deposits: { companyId: string; depositId: string }[]): Promise<Set<string>> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      deposits.map(({ companyId, depositId }) => depositItem.key(companyId, depositId)),
      { projection: { expression: 'id, #status', names: { '#status': 'status' } }, consistent: true },
    );
    return new Set(items.filter((item) => IN_PROGRESS.has(item.status as DepositStatus)).map((item) => item.id as string));
  }

  async reclaimCursor(): Promise<ReclaimCursor> {
    const item = await readItem(this.db, this.tableName, reclaimCursorItem.key());
    return item ? reclaimCursorItem.fromItem(item) : { after: null, closing: [] };
  }

  async setReclaimCursor(cursor: ReclaimCursor, at: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: reclaimCursorItem.toItem(cursor, at) }));
  }
}
