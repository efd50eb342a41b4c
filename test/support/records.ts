import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamo/keys';
import { itemsUnder } from '#adapters/dynamo/queries';

/**
 * A company's stored records as the tests and the bench inspect them (no vitest here, so the bench
 * can use them too), read consistently through the keys module.
 */
export interface StoredEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The company's events, oldest first: the payload each one carries to webhooks. */
export async function storedEvents(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<StoredEvent[]> {
  const items = await itemsUnder(db, tableName, keys.eventsOf(companyId));
  return items.map((item) => JSON.parse(item.payload as string) as StoredEvent);
}

/** The company's ledger entries as stored, oldest first. */
export function storedLedgerEntries(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<Record<string, unknown>[]> {
  return itemsUnder(db, tableName, keys.ledgerOf(companyId));
}
