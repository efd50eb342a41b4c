import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DueForwarder, EvmSweep, EvmSweepStore } from '#functions/deposits/evm-sweeps';
import type { NonceSlot } from '#functions/withdrawals/evm-nonce-sequence';
import type { EvmNetworkName } from '#functions/networks/names';
import { answer, MoneyTransaction, stale } from './transaction.ts';
import { evmSweepItem } from './items/evm-sweep.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { itemsUnder } from './queries.ts';
import { nonceClaimIn, storedNextNonce } from './evm-sending-store.ts';
import { DynamoSweepDueList } from './sweep-store.ts';

/** One EVM network's sweeps: its due forwarders, its sweeps, and the hot wallet's nonce sequence
 * it shares with the network's withdrawal sender (DynamoEvmSendingStore). */
export class DynamoEvmSweepStore implements EvmSweepStore {
  private readonly due: DynamoSweepDueList;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly network: EvmNetworkName,
  ) {
    this.due = new DynamoSweepDueList(db, tableName, network);
  }

  async dueAddresses(limit: number, after?: string): Promise<DueForwarder[]> {
    return (await this.due.dueAddresses(limit, after)).map(({ address, depositId }) => ({ address, depositId }));
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
