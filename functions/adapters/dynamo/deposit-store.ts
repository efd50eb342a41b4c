import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Deposit, DepositStore } from '#domain/deposits';
import { toBigInt } from './client.ts';
import { ENTITY, keys } from './keys.ts';
import { MoneyTransaction } from './transaction.ts';
import { existingReference } from './refusals.ts';

type Item = Record<string, unknown>;

const nullableBigInt = (value: unknown): bigint | null => (value === null || value === undefined ? null : toBigInt(value));

export const depositItem = {
  toItem: (deposit: Deposit): Item => ({
    ...keys.deposit(deposit.companyId, deposit.id),
    ...keys.depositByStatus(deposit.status, deposit.expiresAt, deposit.id),
    type: ENTITY.deposit,
    ...deposit,
  }),
  fromItem: (item: Item): Deposit => {
    const split = item.split as Item | null | undefined;
    return {
      id: item.id as string,
      companyId: item.companyId as string,
      method: 'usdt',
      reference: item.reference as string,
      network: 'tron',
      address: item.address as string,
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
        status: tx.status as 'confirming' | 'confirmed',
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
      expiresAt: item.expiresAt as string,
      createdAt: item.createdAt as string,
      updatedAt: item.updatedAt as string,
      version: Number(toBigInt(item.version ?? 0)),
    };
  },
};

export class DynamoDepositStore implements DepositStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async nextAddressIndex(): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.addressIndexCounter(),
        UpdateExpression: 'ADD nextIndex :one SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':type': ENTITY.counter },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // ADD returns the value after the increment; the first deposit gets index 0.
    return Number(toBigInt(Attributes?.nextIndex)) - 1;
  }

  async createDeposit(deposit: Deposit): Promise<void> {
    const referenceKey = keys.depositReference(deposit.companyId, deposit.reference);
    await new MoneyTransaction(this.tableName)
      .create({ ...referenceKey, type: ENTITY.depositReference, depositId: deposit.id, createdAt: deposit.createdAt }, () =>
        existingReference(this.db, this.tableName, referenceKey, 'depositId', 'deposit'),
      )
      .create(depositItem.toItem(deposit), () => new Error('Deposit id collision'))
      .create(
        {
          ...keys.depositAddress(deposit.address),
          type: ENTITY.depositAddress,
          address: deposit.address,
          addressIndex: deposit.addressIndex,
          companyId: deposit.companyId,
          depositId: deposit.id,
          createdAt: deposit.createdAt,
        },
        // Only possible if an index were handed out twice, which the counter rules out.
        () => new Error('Deposit address already assigned'),
      )
      .commit(this.db);
  }

  async getDeposit(companyId: string, depositId: string): Promise<Deposit | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.deposit(companyId, depositId) }));
    return Item ? depositItem.fromItem(Item) : null;
  }
}
