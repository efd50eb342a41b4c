import type { Deposit, HoldReason } from '#functions/deposits/deposits';
import { toBigInt } from '../client.ts';
import { companyRecord, referenceClaimItem, usdtTransferFromItem, type Item } from './item.ts';

const nullableBigInt = (value: unknown): bigint | null => (value === null || value === undefined ? null : toBigInt(value));

/** The one owner of a stored `Deposit` (the contract's record, amounts in minor units, plus
 * `addressIndex`) and of the `DepositReference` that makes its reference unique per company. */
export const depositItem = {
  ...companyRecord('Deposit', 'DEPOSIT#'),
  /** GSI1: open deposits by expiry time, for the expiry job. */
  byStatus: (status: string, expiresAt: string, depositId: string) => ({
    GSI1PK: `DEPOSITS#${status}`,
    GSI1SK: `${expiresAt}#${depositId}`,
  }),
  /** GSI1: every held deposit (all networks), which the sweeper reads for credits a freeze took back. */
  heldPartition: 'DEPOSITS#held',

  toItem: (deposit: Deposit): Item => ({
    ...depositItem.head(deposit.companyId, deposit.id),
    ...depositItem.byStatus(deposit.status, deposit.expiresAt, deposit.id),
    ...deposit,
  }),
  fromItem: (item: Item): Deposit => {
    const split = item.split as Item | null | undefined;
    return {
      ...usdtTransferFromItem(item),
      addressIndex: Number(toBigInt(item.addressIndex)),
      expectedAmount: nullableBigInt(item.expectedAmount),
      receivedAmount: toBigInt(item.receivedAmount),
      creditedAmount: toBigInt(item.creditedAmount),
      amountStatus: (item.amountStatus as Deposit['amountStatus']) ?? null,
      status: item.status as Deposit['status'],
      confirmations: Number(toBigInt(item.confirmations)),
      requiredConfirmations: Number(toBigInt(item.requiredConfirmations)),
      transactions: ((item.transactions as Item[] | undefined) ?? []).map((tx) => ({
        txHash: tx.txHash as string,
        eventIndex: Number(toBigInt(tx.eventIndex ?? 0)),
        amount: toBigInt(tx.amount),
        blockNumber: Number(toBigInt(tx.blockNumber)),
        confirmations: Number(toBigInt(tx.confirmations)),
        status: tx.status as Deposit['transactions'][number]['status'],
        ...(typeof tx.from === 'string' && { from: tx.from }),
        ...(typeof tx.holdReason === 'string' && { holdReason: tx.holdReason as HoldReason }),
      })),
      split: split
        ? {
            address: split.address as string,
            percentBps: split.percentBps === null || split.percentBps === undefined ? null : Number(toBigInt(split.percentBps)),
            amount: nullableBigInt(split.amount),
            forwardedAmount: toBigInt(split.forwardedAmount),
            withdrawalId: (split.withdrawalId as string | null) ?? null,
          }
        : null,
      ...(item.frozenCredit !== undefined && { frozenCredit: toBigInt(item.frozenCredit) }),
      expiresAt: item.expiresAt as string,
      createdAt: item.createdAt as string,
      updatedAt: item.updatedAt as string,
      version: Number(toBigInt(item.version ?? 0)),
    };
  },
};

/** Claims a deposit's reference in its company, in the deposit's own transaction. */
export const depositReferenceItem = referenceClaimItem('DepositReference', 'DEPOSIT_REF#', 'depositId');
