import type { PayoutOwner } from '#functions/withdrawals/payouts';
import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `TransactionClaim`: which payout a signed transaction id belongs to,
 * created once, before the broadcast, so no two payouts can ever share one transaction
 * (functions/withdrawals/payouts.ts).
 */
export const transactionClaimItem = {
  ...globalRecord('TransactionClaim', 'TX_CLAIM', 'CLAIM'),
  toItem: (txId: string, owner: PayoutOwner, claimedAt: string): Item => ({ ...transactionClaimItem.head(txId), txId, owner, claimedAt }),
  owner: (item: Item): PayoutOwner => item.owner as string,
};
