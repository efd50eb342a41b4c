import type { Alongside } from '#functions/shared/alongside';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deposit, DepositStore } from '#functions/deposits/deposits';
import { ADDRESS_INDEX_BLOCK, addressIndexCounterItem, depositAddressItem, depositAddressListedItem } from './items/deposit-address.ts';
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
  /** What is left of this store's block (a Lambda keeps its store across warm invocations). */
  private block = { next: 0, end: 0 };
  private reserving: Promise<void> | null = null;

  async nextAddressIndex(): Promise<number> {
    while (this.block.next >= this.block.end) {
      // Concurrent requests of one process wait on one reservation rather than each taking a block.
      this.reserving ??= this.reserveBlock().finally(() => {
        this.reserving = null;
      });
      await this.reserving;
    }
    return this.block.next++;
  }

  private async reserveBlock(): Promise<void> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: addressIndexCounterItem.key(),
        UpdateExpression: 'ADD nextIndex :block SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':block': ADDRESS_INDEX_BLOCK, ':type': addressIndexCounterItem.type },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // ADD returns the value after the increment: the block is the ADDRESS_INDEX_BLOCK before it.
    const end = addressIndexCounterItem.nextIndexOf(Attributes ?? {});
    // The first block: this counter is this code's from index 0, so every address is listed (the
    // scanner's filter needs no index 0 to know it, and a first deposit refused after taking it
    // costs nothing). Said before index 0 is handed out; lost to a crash here, index 0 says it.
    if (end === ADDRESS_INDEX_BLOCK) {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: addressIndexCounterItem.key(), UpdateExpression: 'SET listsEveryAddress = :yes', ExpressionAttributeValues: { ':yes': true } }));
    }
    this.block = { next: end - ADDRESS_INDEX_BLOCK, end };
  }

  async createDeposit(deposit: Deposit, splitGuard: AllowlistGuard | null, alongside?: Alongside): Promise<'written' | 'allowlist'> {
    return underGuard(new MoneyTransaction(this.tableName), deposit.companyId, splitGuard)
      .create(depositReferenceItem.toItem(deposit), () => existingReference(this.db, this.tableName, depositReferenceItem, deposit, 'deposit'))
      .create(depositItem.toItem(deposit), () => new Error('Deposit id collision'))
      // Only possible if an index were handed out twice, which the counter rules out.
      .create(depositAddressItem.toItem(deposit), () => new Error('Deposit address already assigned'))
      .put(depositAddressListedItem.toItem(deposit))
      .alongside(alongside)
      .commitOrAnswer<'allowlist'>(this.db);
  }

  allowlistFor(companyId: string, network: NetworkName, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, network, address);
  }

  async getDeposit(companyId: string, depositId: string): Promise<Deposit | null> {
    return this.companyRecordById(depositItem, companyId, depositId);
  }
}
