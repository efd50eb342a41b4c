import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toBigInt } from '../../adapters/dynamo/client.ts';
import { globalRecord, type Item } from '../../adapters/dynamo/items/item.ts';
import { ApiError } from '../../shared/errors.ts';

/** Deposit addresses by index, as the sweeper writes them ahead (./deposit-owners.ts says why):
 * apart from the derivation so that deposit creation bundles no curve or HD-key code. */
export const OWNERS_PER_BLOCK = 100;

/** The one owner of a stored `SolanaDepositOwners`: the deposit addresses of one block of indexes,
 * written once by the sweeper and never changed. */
export const depositOwnersItem = {
  ...globalRecord('SolanaDepositOwners', 'SOLANA_DEPOSIT_OWNERS', 'BLOCK'),
  blockOf: (index: number): number => Math.floor(index / OWNERS_PER_BLOCK),
  toItem: (block: number, owners: string[], createdAt: string): Item => ({ ...depositOwnersItem.head(String(block)), block, owners, createdAt }),
  ownersOf: (item: Item): string[] => item.owners as string[],
  /** Where the written blocks end: every block below `writtenBelow` is written (the sweeper's marker,
   * so a run reads one item when no block is due). */
  writtenType: 'SolanaDepositOwnersWritten',
  writtenKey: () => ({ PK: 'SOLANA_DEPOSIT_OWNERS', SK: 'WRITTEN' }),
  writtenBelowOf: (item: Item): number => Number(toBigInt(item.writtenBelow)),
};

/** Deposit creation asked for an address the sweeper has not derived yet: a matter of a minute, so
 * the caller is told to retry (503 NETWORK_UNAVAILABLE), and nothing is written. */
export class DepositOwnersNotReady extends ApiError {
  constructor(readonly index: number) {
    super('NETWORK_UNAVAILABLE', 'Solana deposit addresses are being made; retry in a minute');
    this.name = 'DepositOwnersNotReady';
  }
}

/** The deposit addresses by index, read a block at a time and kept: a block never changes. */
export class DepositOwnerDirectory {
  private readonly blocks = new Map<number, Promise<string[] | null>>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async ownerAt(index: number): Promise<string> {
    const block = depositOwnersItem.blockOf(index);
    let owners = this.blocks.get(block);
    if (!owners) {
      owners = this.db
        .send(new GetCommand({ TableName: this.tableName, Key: depositOwnersItem.key(String(block)), ConsistentRead: true }))
        .then(({ Item }) => (Item ? depositOwnersItem.ownersOf(Item) : null));
      this.blocks.set(block, owners);
    }
    const found = await owners.catch((error: unknown) => {
      this.blocks.delete(block);
      throw error;
    });
    // Not written yet: asked again next time, not remembered as missing.
    if (!found) this.blocks.delete(block);
    const owner = found?.[index % OWNERS_PER_BLOCK];
    if (!owner) throw new DepositOwnersNotReady(index);
    return owner;
  }
}

