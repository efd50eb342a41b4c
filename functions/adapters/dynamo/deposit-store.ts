import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deposit, DepositStore } from '#functions/deposits/deposits';
import { addressIndexCounterItem, depositAddressItem, depositAddressListedItem } from './items/deposit-address.ts';
import { MoneyTransaction } from './transaction.ts';
import { existingReference } from './refusals.ts';
import { depositItem, depositReferenceItem } from './items/deposit.ts';
import { TableStore } from './table-store.ts';
import type { AllowlistGuard } from '#functions/withdrawals/withdrawal-policy';
import { allowlistReader, underGuard } from './withdrawal-allowlist-store.ts';
import { withDestinationLists } from './destination-lists.ts';
import type { NetworkName } from '#functions/networks/names';

/** Deposits, with the lists a split's address is checked against (destination-lists.ts). */
export class DynamoDepositStore extends withDestinationLists(TableStore) implements DepositStore {
  async nextAddressIndex(): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: addressIndexCounterItem.key(),
        UpdateExpression: 'ADD nextIndex :one SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':type': addressIndexCounterItem.type },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // ADD returns the value after the increment; the first deposit gets index 0.
    return addressIndexCounterItem.nextIndexOf(Attributes ?? {}) - 1;
  }

  async createDeposit(deposit: Deposit, splitGuard: AllowlistGuard | null): Promise<'written' | 'allowlist'> {
    return underGuard(new MoneyTransaction(this.tableName), deposit.companyId, splitGuard)
      .create(depositReferenceItem.toItem(deposit), () => existingReference(this.db, this.tableName, depositReferenceItem, deposit, 'deposit'))
      .create(depositItem.toItem(deposit), () => new Error('Deposit id collision'))
      // Only possible if an index were handed out twice, which the counter rules out.
      .create(depositAddressItem.toItem(deposit), () => new Error('Deposit address already assigned'))
      .put(depositAddressListedItem.toItem(deposit))
      .commitOrAnswer<'allowlist'>(this.db);
  }

  allowlistFor(companyId: string, network: NetworkName, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, network, address);
  }

  async getDeposit(companyId: string, depositId: string): Promise<Deposit | null> {
    return this.companyRecordById(depositItem, companyId, depositId);
  }
}
