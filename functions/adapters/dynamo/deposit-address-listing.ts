import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LISTING_PAGE_SIZE, type AddressOwner, type DepositAddressListing, type ListedDepositAddress, type ListingPage } from '#functions/deposits/deposit-address-filter';
import { addressIndexCounterItem, depositAddressItem, depositAddressListedItem } from './items/deposit-address.ts';
import { batchGetAll, readItem } from './queries.ts';

/**
 * Reading the deposit address listing (items/deposit-address.ts `DepositAddressListed`: every
 * network's addresses in the order made), for the scanner's address filter and Solana's sweeper.
 * A page at a time, each projected to what an entry's reader needs and turned into addresses before
 * the next is read: the listing holds every address a stage ever made, and its raw items whole
 * would outweigh the function reading them.
 */

/** One page of the listing: at most `limit` addresses after the entry whose place is `after` (from
 * the start when null), made at or after `since` when given, read consistently. */
export async function depositAddressListingPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  { since = null, after, limit }: { since?: string | null; after: string | null; limit: number },
): Promise<ListingPage> {
  const { listedProjection } = depositAddressListedItem;
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: since === null ? 'PK = :pk' : 'PK = :pk AND SK >= :from',
      ExpressionAttributeValues: { ':pk': depositAddressListedItem.partition, ...(since !== null && { ':from': depositAddressListedItem.from(since) }) },
      ProjectionExpression: listedProjection.expression,
      ExpressionAttributeNames: listedProjection.names,
      ConsistentRead: true,
      Limit: limit,
      ...(after !== null && { ExclusiveStartKey: depositAddressListedItem.keyAt(after) }),
    }),
  );
  return { listed: Items.map(depositAddressListedItem.fromItem), next: LastEvaluatedKey ? depositAddressListedItem.sortKeyOf(LastEvaluatedKey) : null };
}

/** Every address listed with a creation time at or after `since` (every one when null), read consistently. */
export async function depositAddressesListedSince(db: DynamoDBDocumentClient, tableName: string, since: string | null): Promise<ListedDepositAddress[]> {
  const listed: ListedDepositAddress[] = [];
  let after: string | null = null;
  do {
    const page = await depositAddressListingPage(db, tableName, { since, after, limit: LISTING_PAGE_SIZE });
    listed.push(...page.listed);
    after = page.next;
  } while (after !== null);
  return listed;
}

/** The listing as the scanners' address filter reads it (functions/deposits/deposit-address-filter.ts),
 * whichever network's scanner: the poller keeps one filter over it for all of them. */
export class DynamoDepositAddressListing implements DepositAddressListing {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  depositAddressesListed(since: string | null): Promise<ListedDepositAddress[]> {
    return depositAddressesListedSince(this.db, this.tableName, since);
  }

  depositAddressesListedPage(after: string | null, limit: number): Promise<ListingPage> {
    return depositAddressListingPage(this.db, this.tableName, { after, limit });
  }

  /** Read consistently: until the filter has read the listing whole, this read alone answers for an
   * address it does not hold, which may have been made a moment before its payment was seen. */
  async ownersOf(addresses: string[]): Promise<Map<string, AddressOwner>> {
    const items = await batchGetAll(this.db, this.tableName, addresses.map(depositAddressItem.key), { projection: depositAddressItem.ownerProjection, consistent: true });
    return new Map(items.map((item) => [depositAddressItem.addressOf(item), depositAddressItem.ownerFromItem(item)]));
  }

  async listsEveryAddress(): Promise<boolean> {
    const counter = await readItem(this.db, this.tableName, addressIndexCounterItem.key());
    return counter !== null && addressIndexCounterItem.listsEveryAddressOf(counter);
  }
}

/** One page of the listing: at most `limit` addresses after the entry whose place is `after` (from
 * the start when null) and made before `before`, in order, each with its place (`sortKey`) for the
 * next page. */
export async function depositAddressesListedAfter(
  db: DynamoDBDocumentClient,
  tableName: string,
  after: string | null,
  before: string,
  limit: number,
): Promise<{ address: string; sortKey: string }[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: after === null ? 'PK = :pk AND SK < :before' : 'PK = :pk AND SK BETWEEN :after AND :before',
      ExpressionAttributeValues: { ':pk': depositAddressListedItem.partition, ':before': depositAddressListedItem.from(before), ...(after !== null && { ':after': after }) },
      ConsistentRead: true,
      Limit: limit + 1,
    }),
  );
  // BETWEEN includes `after` itself: the entry handled last.
  return Items.filter((item) => depositAddressListedItem.sortKeyOf(item) !== after)
    .slice(0, limit)
    .map((item) => ({ address: depositAddressListedItem.fromItem(item).address, sortKey: depositAddressListedItem.sortKeyOf(item) }));
}
