import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EvmNetworkName } from '#functions/networks/names';
import type { DomainEvent } from '#functions/shared/events';
import type { EvmSendingStore, NonceSlot } from '#functions/withdrawals/evm-withdrawal-sending';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { answer, MoneyTransaction } from './transaction.ts';
import { evmNonceClaimItem, evmNonceSequenceItem } from './items/evm-nonce.ts';
import { withdrawalItem } from './items/withdrawal.ts';
import { readItem } from './queries.ts';
import { DynamoWithdrawalSendingStore } from './withdrawal-sending-store.ts';

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

  async nextNonce(wallet: string): Promise<number | null> {
    const item = await readItem(this.db, this.tableName, evmNonceSequenceItem.key(this.evmNetwork, wallet));
    return item ? evmNonceSequenceItem.next(item) : null;
  }

  async claimNonce(before: Withdrawal, after: Withdrawal, { wallet, nonce, first }: NonceSlot, event: DomainEvent): Promise<'written' | 'nonce-taken' | 'stale'> {
    const taken = answer('nonce-taken');
    const tx = new MoneyTransaction(this.tableName).put(withdrawalItem.toItem(after), {
      condition: '#status = :status AND updatedAt = :updatedAt',
      names: { '#status': 'status' },
      values: { ':status': before.status, ':updatedAt': before.updatedAt },
      onFailed: answer('stale'),
    });
    const sequence = evmNonceSequenceItem.toItem(this.evmNetwork, wallet, nonce + 1, after.updatedAt);
    if (first) tx.create(sequence, taken);
    else tx.put(sequence, { condition: '#next = :nonce', names: { '#next': 'next' }, values: { ':nonce': nonce }, onFailed: taken });
    tx.create(evmNonceClaimItem.toItem(this.evmNetwork, wallet, nonce, after.id, after.updatedAt), taken);
    return tx.event(event).commitOrAnswer<'nonce-taken' | 'stale'>(this.db);
  }
}
