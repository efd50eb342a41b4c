import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EvmNetworkName } from '#functions/networks/names';
import type { DomainEvent } from '#functions/shared/events';
import type { EvmSendingStore } from './withdrawal-sending.ts';
import type { NonceSlot } from './nonce-sequence.ts';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { answer, MoneyTransaction } from '../../adapters/dynamo/transaction.ts';
import { evmNonceClaimItem, evmNonceSequenceItem, type EvmNonceHolder } from './nonce-record.ts';
import { withdrawalItem } from '../../adapters/dynamo/items/withdrawal.ts';
import { readItem } from '../../adapters/dynamo/queries.ts';
import { DynamoWithdrawalSendingStore, asRead } from '../../adapters/dynamo/withdrawal-sending-store.ts';

/** One EVM network's sending: its withdrawals, and its hot wallet's nonce sequence. */
export class DynamoEvmSendingStore extends DynamoWithdrawalSendingStore implements EvmSendingStore {
  protected override readonly claimsTransactionIds = false;

  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    private readonly evmNetwork: EvmNetworkName,
  ) {
    super(db, tableName, evmNetwork);
  }

  nextNonce(wallet: string): Promise<number | null> {
    return storedNextNonce(this.db, this.tableName, this.evmNetwork, wallet);
  }

  /** Guarded, as `transition` is, by the version read (asRead): a copy read before a replacement
   * is refused ('stale'), never signed again on a new nonce over a version that may have landed. */
  async claimNonce(before: Withdrawal, after: Withdrawal, slot: NonceSlot, event: DomainEvent | null): Promise<'written' | 'nonce-taken' | 'stale'> {
    const tx = new MoneyTransaction(this.tableName).put(withdrawalItem.toItem(after), { ...asRead(before), onFailed: answer('stale') });
    nonceClaimIn(tx, this.evmNetwork, slot, { withdrawalId: after.id }, after.updatedAt);
    if (event) tx.event(event);
    return tx.commitOrAnswer<'nonce-taken' | 'stale'>(this.db);
  }
}

/** The wallet's next unallocated nonce on the network (NonceSequence), null before its first. */
export async function storedNextNonce(db: DynamoDBDocumentClient, tableName: string, network: EvmNetworkName, wallet: string): Promise<number | null> {
  const item = await readItem(db, tableName, evmNonceSequenceItem.key(network, wallet));
  return item ? evmNonceSequenceItem.next(item) : null;
}

/**
 * Adds to `tx` the writes that take `slot.nonce` for `holder`: the wallet's sequence moves from it
 * to the next (created on the first allocation) and the nonce's claim is created. Either refused
 * cancels the whole transaction with the answer 'nonce-taken': another signer has the nonce.
 */
export function nonceClaimIn(tx: MoneyTransaction, network: EvmNetworkName, { wallet, nonce, first, from }: NonceSlot, holder: EvmNonceHolder, at: string): MoneyTransaction {
  const taken = answer('nonce-taken');
  const sequence = evmNonceSequenceItem.toItem(network, wallet, nonce + 1, at);
  if (first) tx.create(sequence, taken);
  else tx.put(sequence, { condition: '#next = :from', names: { '#next': 'next' }, values: { ':from': from ?? nonce }, onFailed: taken });
  return tx.create(evmNonceClaimItem.toItem(network, wallet, nonce, holder, at), taken);
}
