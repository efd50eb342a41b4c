import type { PayoutOwner } from '#domain/payouts';
import type { Item } from './item.ts';

/**
 * The one owner of a stored `TransactionClaim`: which payout a signed transaction id belongs to,
 * created once, before the broadcast, so no two payouts can ever share one transaction
 * (functions/domain/payouts.ts).
 */
export const transactionClaimItem = {
  type: 'TransactionClaim',
  key: (txId: string) => ({ PK: `TX_CLAIM#${txId}`, SK: 'CLAIM' }),
  toItem: (txId: string, owner: PayoutOwner, claimedAt: string): Item => ({
    ...transactionClaimItem.key(txId),
    type: transactionClaimItem.type,
    txId,
    owner,
    claimedAt,
  }),
  owner: (item: Item): PayoutOwner => item.owner as string,
};
