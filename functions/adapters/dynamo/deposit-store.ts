import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deposit, DepositStore } from '#domain/deposits';
import { toBigInt } from './client.ts';
import { ENTITY, keys } from './keys.ts';
import { MoneyTransaction } from './transaction.ts';
import { existingReference } from './refusals.ts';
import { depositItem, depositReferenceItem } from './items/deposit.ts';
import { TableStore } from './table-store.ts';

type Item = Record<string, unknown>;


export class DynamoDepositStore extends TableStore implements DepositStore {
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
    await new MoneyTransaction(this.tableName)
      .create(depositReferenceItem.toItem(deposit), () => existingReference(this.db, this.tableName, depositReferenceItem, deposit, 'deposit'))
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
    return this.companyRecordById(depositItem, companyId, depositId);
  }
}
