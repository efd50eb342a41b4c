import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DueForwarder, EvmSweep, EvmSweepStore } from './sweeps.ts';
import type { NonceSlot } from './nonce-sequence.ts';
import type { EvmNetworkName } from '#functions/networks/names';
import { answer, MoneyTransaction, stale } from '../../adapters/dynamo/transaction.ts';
import { evmSweepItem } from './sweep-record.ts';
import { ledgerEntryItem } from '../../adapters/dynamo/items/ledger-entry.ts';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { itemsUnder, readItem } from '../../adapters/dynamo/queries.ts';
import { depositAddressListedItem } from '../../adapters/dynamo/items/deposit-address.ts';
import { nonceClaimIn, storedNextNonce } from './sending-store.ts';
import { SweepStoreOverDueList } from '../../adapters/dynamo/sweep-due-list.ts';

/** One EVM network's sweeps: its due forwarders, its sweeps, and the hot wallet's nonce sequence
 * it shares with the network's withdrawal sender (DynamoEvmSendingStore). */
export class DynamoEvmSweepStore extends SweepStoreOverDueList implements EvmSweepStore {
  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    private readonly network: EvmNetworkName,
  ) {
    super(db, tableName, network);
  }

  dueAddresses(limit: number, after?: string): Promise<{ due: DueForwarder[]; next: string | null }> {
    return this.duePage(limit, after, ({ address, depositId }) => ({ address, depositId }));
  }

  /**
   * A page of the deposit address listing (every network's, in the order made) after the stored
   * cursor, wrapping round to its start, EVM addresses only; then the cursor moves to what was read.
   * Two sweepers at once would at worst read a page twice.
   */
  async nextAddressesToCheckForNative(limit: number): Promise<DueForwarder[]> {
    const cursorKey = evmSweepItem.nativeCheckCursor(this.network);
    const after = (await readItem(this.db, this.tableName, cursorKey))?.after as string | undefined;
    const page = async (from: string | undefined, count: number) =>
      (
        await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: from === undefined ? 'PK = :pk' : 'PK = :pk AND SK > :after',
            ExpressionAttributeValues: { ':pk': depositAddressListedItem.partition, ...(from !== undefined && { ':after': from }) },
            Limit: count,
          }),
        )
      ).Items ?? [];
    const read = await page(after, limit);
    // The end of the listing: on from its start, up to the page's size (what follows the cursor is read again only on a short listing).
    const wrapped = read.length < limit && after !== undefined ? await page(undefined, limit - read.length) : [];
    const last = wrapped.length > 0 ? wrapped : read;
    // A short read took everything up to the end: the next page starts at the beginning.
    const next = last.length > 0 && (wrapped.length > 0 ? wrapped.length === limit - read.length : read.length === limit) ? depositAddressListedItem.sortKeyOf(last.at(-1)!) : undefined;
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...cursorKey, type: 'EvmNativeCheckCursor', ...(next !== undefined && { after: next }) } }));
    const forwarders = new Map<string, DueForwarder>();
    for (const listed of [...read, ...wrapped].map(depositAddressListedItem.fromItem)) {
      if (listed.address.startsWith('0x')) forwarders.set(listed.address, { address: listed.address, depositId: listed.owner.depositId });
    }
    return [...forwarders.values()];
  }

  nextNonce(wallet: string): Promise<number | null> {
    return storedNextNonce(this.db, this.tableName, this.network, wallet);
  }

  async openSweeps(): Promise<EvmSweep[]> {
    return (await itemsUnder(this.db, this.tableName, evmSweepItem.openOf(this.network))).map(evmSweepItem.fromItem).sort((a, b) => a.nonce - b.nonce);
  }

  /** Finished sweeps, oldest first: the record reconciliation and finance read. */
  async finishedSweeps(): Promise<EvmSweep[]> {
    return (await itemsUnder(this.db, this.tableName, evmSweepItem.finishedOf(this.network))).map(evmSweepItem.fromItem);
  }

  storeSweep(sweep: EvmSweep, slot: NonceSlot): Promise<'written' | 'nonce-taken'> {
    const tx = new MoneyTransaction(this.tableName).create(evmSweepItem.toItem(sweep), answer('nonce-taken'));
    nonceClaimIn(tx, this.network, slot, { sweepId: sweep.id }, sweep.createdAt);
    return tx.commitOrAnswer<'nonce-taken'>(this.db);
  }

  saveSweep(before: EvmSweep, after: EvmSweep, tokenFee?: LedgerEntry | null): Promise<boolean> {
    const guard = { condition: '#status = :status AND updatedAt = :updatedAt', names: { '#status': 'status' }, values: { ':status': before.status, ':updatedAt': before.updatedAt }, onFailed: stale };
    const tx = new MoneyTransaction(this.tableName);
    // Finished: it moves from the open sweeps to the network's history.
    if (evmSweepItem.isFinished(after)) tx.deleteWhere(evmSweepItem.open(before.network, before.id), guard).put(evmSweepItem.toItem(after));
    else tx.put(evmSweepItem.toItem(after), guard);
    // Cambio's own books: no company balance moves (ledger.ts tokenFeeEntry).
    if (tokenFee) tx.put(ledgerEntryItem.toItem(tokenFee));
    return tx.commitUnlessStale(this.db);
  }
}
