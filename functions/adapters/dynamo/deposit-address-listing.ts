import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ListedDepositAddress } from '#functions/deposits/deposit-address-filter';
import { depositAddressListedItem } from './items/deposit-address.ts';
import { queryAll } from './queries.ts';

/**
 * Reading the deposit address listing (items/deposit-address.ts `DepositAddressListed`: every
 * network's addresses in the order made), for the scanner's address filter and Solana's sweeper.
 */

/** Every address listed with a creation time at or after `since` (every one when null), read consistently. */
export async function depositAddressesListedSince(db: DynamoDBDocumentClient, tableName: string, since: string | null): Promise<ListedDepositAddress[]> {
  const items = await queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: since === null ? 'PK = :pk' : 'PK = :pk AND SK >= :from',
    ExpressionAttributeValues: { ':pk': depositAddressListedItem.partition, ...(since !== null && { ':from': depositAddressListedItem.from(since) }) },
    ConsistentRead: true,
  });
  return items.map(depositAddressListedItem.fromItem);
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
