import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { insufficientBalance } from '#domain/errors';
import type { LedgerEntry } from '#domain/ledger';
import type { Withdrawal, WithdrawalStore } from '#domain/withdrawals';
import { toBigInt } from './client.ts';
import { ENTITY, keys } from './keys.ts';
import { MoneyTransaction } from './transaction.ts';
import { existingReference } from './refusals.ts';

type Item = Record<string, unknown>;

export const withdrawalItem = {
  toItem: (withdrawal: Withdrawal): Item => ({
    ...keys.withdrawal(withdrawal.companyId, withdrawal.id),
    ...keys.withdrawalByStatus(withdrawal.status, withdrawal.id),
    type: ENTITY.withdrawal,
    ...withdrawal,
  }),
  fromItem: (item: Item): Withdrawal => ({
    id: item.id as string,
    companyId: item.companyId as string,
    method: 'usdt',
    reference: item.reference as string,
    network: 'tron',
    address: item.address as string,
    amount: toBigInt(item.amount),
    fee: toBigInt(item.fee),
    status: item.status as Withdrawal['status'],
    txHash: (item.txHash as string | null) ?? null,
    failureReason: (item.failureReason as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    completedAt: (item.completedAt as string | null) ?? null,
    transaction: (item.transaction as Withdrawal['transaction'] | undefined) ?? null,
  }),
};

export class DynamoWithdrawalStore implements WithdrawalStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createWithdrawal(withdrawal: Withdrawal, hold: LedgerEntry): Promise<void> {
    const referenceKey = keys.withdrawalReference(withdrawal.companyId, withdrawal.reference);
    await new MoneyTransaction(this.tableName)
      .create(
        { ...referenceKey, type: ENTITY.withdrawalReference, withdrawalId: withdrawal.id, createdAt: withdrawal.createdAt },
        () => existingReference(this.db, this.tableName, referenceKey, 'withdrawalId', 'withdrawal'),
      )
      .create(withdrawalItem.toItem(withdrawal), () => new Error('Withdrawal id collision'))
      .ledger(hold, insufficientBalance)
      .commit(this.db);
  }

  async getWithdrawal(companyId: string, withdrawalId: string): Promise<Withdrawal | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.withdrawal(companyId, withdrawalId) }));
    return Item ? withdrawalItem.fromItem(Item) : null;
  }
}
