import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FrozenAddressList } from '#functions/deposits/frozen-addresses';
import type { NetworkName } from '#functions/networks/names';
import { depositAddressItem } from './items/deposit-address.ts';
import { chainTransferItem } from './items/chain-transfer.ts';
import { gsi1Partition, heldCondition, queryAll } from './queries.ts';

/**
 * One network's deposit addresses marked sweep-due (a confirmed deposit since their last sweep), as
 * its sweeper reads and clears them: each network's sweeper (functions/networks/<family>/sweeps.ts). Remembers when each due flag was read, so clearing it never
 * drops a flag set since.
 */
export class DynamoSweepDueList implements FrozenAddressList {
  private readonly dueSince = new Map<string, string>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly network: NetworkName,
  ) {}

  /**
   * At most `limit`, in address order; `after`: only those after that address (the next page). An
   * address paid by a transfer still confirming waits (left out, still due) until the confirmer has
   * judged it: every family's sweep moves an address's whole balance, which would take a payment
   * not yet screened into the hot wallet with the credited one, where a sanctioned payer's money,
   * held once final, must stay where it landed (deposit-chain-store keepsSanctionedMoneyInPlace).
   * The wait is the network's finality: about a minute on TRON, thirteen on Ethereum.
   */
  async dueAddresses(limit: number, after?: string): Promise<DueAddress[]> {
    const [Items, confirming] = await Promise.all([this.duePage(limit, after), this.depositsConfirming()]);
    return Items.flatMap((item) => {
      const { dueSince, ...due } = depositAddressItem.sweepCandidateFromItem(item);
      if (confirming.has(due.depositId)) return [];
      this.dueSince.set(due.address, dueSince);
      return [due];
    });
  }

  private async duePage(limit: number, after?: string) {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: after === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK > :after',
        ExpressionAttributeValues: { ':pk': depositAddressItem.sweepDuePartition(this.network), ...(after !== undefined && { ':after': after }) },
        Limit: limit,
      }),
    );
    return Items;
  }

  /** The deposits of this network's transfers still confirming (the index is eventually consistent:
   * one just recorded may show a moment late, as the due mark its credit sets does). */
  private async depositsConfirming(): Promise<Set<string>> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': chainTransferItem.confirmingPartition(this.network) },
      ProjectionExpression: 'depositId',
    });
    return new Set(items.map((item) => item.depositId as string));
  }

  /** Due → set aside (frozen-addresses.ts). Only from the due list: a cleared address stays cleared. */
  async setAside(address: string): Promise<void> {
    const frozen = depositAddressItem.frozen(this.network, address);
    await this.moveAddress(address, {
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
      ConditionExpression: 'GSI1PK = :due',
      ExpressionAttributeValues: { ':pk': frozen.GSI1PK, ':sk': frozen.GSI1SK, ':due': depositAddressItem.sweepDuePartition(this.network) },
    });
  }

  async setAsideAddresses(): Promise<string[]> {
    const items = await gsi1Partition(this.db, this.tableName, depositAddressItem.frozenPartition(this.network));
    return items.map(depositAddressItem.addressOf);
  }

  /** Set aside → due, with its due time kept (a confirmation meanwhile may have set a later one). */
  async returnToDue(address: string): Promise<void> {
    const due = depositAddressItem.sweepDue(this.network, address);
    await this.moveAddress(address, {
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, sweepDueSince = if_not_exists(sweepDueSince, :now)',
      ConditionExpression: 'GSI1PK = :frozen',
      ExpressionAttributeValues: { ':pk': due.GSI1PK, ':sk': due.GSI1SK, ':frozen': depositAddressItem.frozenPartition(this.network), ':now': new Date().toISOString() },
    });
  }

  async clearDue(address: string, remaining: bigint): Promise<void> {
    const belowMinimum = depositAddressItem.belowMinimum(this.network, address);
    await this.moveAddress(address, {
      // A confirmation moves the item back to sweepDue (deposit-chain-store); a sweep that
      // empties the address removes it from both partitions.
      UpdateExpression:
        remaining > 0n
          ? 'SET GSI1PK = :pk, GSI1SK = :sk, unsweptUsdt = :remaining REMOVE sweepDueSince'
          : 'REMOVE GSI1PK, GSI1SK, sweepDueSince, unsweptUsdt',
      ConditionExpression: 'sweepDueSince = :seen',
      ExpressionAttributeValues: {
        ':seen': this.dueSince.get(address) ?? '',
        ...(remaining > 0n && { ':pk': belowMinimum.GSI1PK, ':sk': belowMinimum.GSI1SK, ':remaining': remaining }),
      },
    });
  }

  /** Moves a deposit address's item between the list's GSI1 partitions, only if it is still where
   * the condition says: one that moved meanwhile (a confirmation, another sweeper) is left as it is. */
  private async moveAddress(address: string, update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>): Promise<void> {
    await heldCondition(this.db.send(new UpdateCommand({ TableName: this.tableName, Key: depositAddressItem.key(address), ...update })));
  }
}

/** A due address as the list reads it: its HD index (TRON derives its key from it), and the deposit
 * it was issued for (an EVM forwarder's salt). */
export interface DueAddress {
  address: string;
  addressIndex: number;
  depositId: string;
}

/**
 * A family's sweep store over its network's due list (functions/networks/<family>/sweep-store.ts):
 * clearing an address and setting it aside (frozen-addresses.ts) are the list's; the family adds
 * how it reads the due addresses and keeps its sweeps.
 */
export abstract class SweepStoreOverDueList implements FrozenAddressList {
  protected readonly due: DynamoSweepDueList;

  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
    network: NetworkName,
  ) {
    this.due = new DynamoSweepDueList(db, tableName, network);
  }

  clearDue(address: string, remaining: bigint): Promise<void> {
    return this.due.clearDue(address, remaining);
  }

  setAside(address: string): Promise<void> {
    return this.due.setAside(address);
  }

  setAsideAddresses(): Promise<string[]> {
    return this.due.setAsideAddresses();
  }

  returnToDue(address: string): Promise<void> {
    return this.due.returnToDue(address);
  }
}
