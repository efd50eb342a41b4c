import type { NetworkName } from '#functions/networks/names';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { toBigInt } from '../client.ts';
import { companyRecord, referenceClaimItem, usdtTransferFromItem, type Item } from './item.ts';

/** The one owner of a stored `Withdrawal` (the contract's record, `amount` and `fee` in minor
 * units) and of the `WithdrawalReference` that makes its reference unique per company. */
export const withdrawalItem = {
  ...companyRecord('Withdrawal', 'WITHDRAWAL#'),
  /** GSI1: withdrawals by status, oldest first, for the sending job. */
  /** GSI1: a network's withdrawals in one status, oldest first, for that network's sender. TRON's
   * partitions keep the name they had when TRON was the only network, so stored ones need no move. */
  byStatus: (network: NetworkName, status: string, withdrawalId: string) => ({
    GSI1PK: network === 'tron' ? `WITHDRAWALS#${status}` : `WITHDRAWALS#${network}#${status}`,
    GSI1SK: withdrawalId,
  }),

  toItem: (withdrawal: Withdrawal): Item => ({
    ...withdrawalItem.head(withdrawal.companyId, withdrawal.id),
    ...withdrawalItem.byStatus(withdrawal.network, withdrawal.status, withdrawal.id),
    ...withdrawal,
  }),
  fromItem: (item: Item): Withdrawal => ({
    ...usdtTransferFromItem(item),
    amount: toBigInt(item.amount),
    fee: toBigInt(item.fee),
    status: item.status as Withdrawal['status'],
    txHash: (item.txHash as string | null) ?? null,
    deliveredAmount: item.deliveredAmount === null || item.deliveredAmount === undefined ? null : toBigInt(item.deliveredAmount),
    networkCost: networkCostFromItem(item.networkCost as Item | null | undefined),
    failureReason: (item.failureReason as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    completedAt: (item.completedAt as string | null) ?? null,
    transaction: sentTransactionFromItem(item.transaction as Item | undefined),
    limitDay: (item.limitDay as string | null | undefined) ?? null,
  }),
};

/** Stored as the record has it, its amount a number (base units); absent on items written before
 * it was recorded: null, as for one not yet final. Its decimals are absent on the costs written
 * before it carried them, all of them Solana's, in lamports. */
function networkCostFromItem(stored: Item | null | undefined): Withdrawal['networkCost'] {
  if (!stored) return null;
  const decimals = stored.decimals === undefined ? LAMPORT_DECIMALS : Number(toBigInt(stored.decimals));
  return { asset: stored.asset as string, decimals, amount: toBigInt(stored.amount), tokenAccountCreated: stored.tokenAccountCreated === true };
}

/** SOL's decimals: the only coin a cost was stored in before costs carried their decimals. */
const LAMPORT_DECIMALS = 9;

/** An EVM transaction's nonce is stored as a number: read back wrapped, it becomes one again. */
function sentTransactionFromItem(stored: Item | undefined): Withdrawal['transaction'] {
  if (!stored) return null;
  const transaction = stored as unknown as NonNullable<Withdrawal['transaction']>;
  return stored.nonce === undefined ? transaction : { ...transaction, nonce: Number(toBigInt(stored.nonce)) };
}

/** Claims a withdrawal's reference in its company, in the withdrawal's own transaction. */
export const withdrawalReferenceItem = referenceClaimItem('WithdrawalReference', 'WITHDRAWAL_REF#', 'withdrawalId');
