import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from '#adapters/dynamo/items/item';
import { pagesOf } from '#adapters/dynamo/queries';
import { companyItem } from '#adapters/dynamo/items/company';
import { eventItem } from '#adapters/dynamo/items/event';
import { ledgerDifferences } from '../test/support/ledger.ts';
import { storedEvents } from '../test/support/records.ts';

/**
 * After-run checks: every company's balance buckets equal the sum of its ledger postings (test/support/ledger.ts), and events' delivery.
 */

/** Every company in the table (its profile item, items/company.ts). */
export async function allCompanyIds(db: DynamoDBDocumentClient, tableName: string): Promise<string[]> {
  const ids: string[] = [];
  const profiles = (ExclusiveStartKey: Item | undefined) =>
    new ScanCommand({
      TableName: tableName,
      FilterExpression: '#type = :company',
      ExpressionAttributeNames: { '#type': 'type', '#id': 'id' },
      ExpressionAttributeValues: { ':company': companyItem.type },
      ProjectionExpression: '#id',
      ExclusiveStartKey,
    });
  for await (const page of pagesOf(db, profiles)) ids.push(...page.map((item) => item.id as string));
  return ids;
}

/** Differences between a company's balance buckets and the sums of its postings (empty: they match). */
export async function ledgerMismatches(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<string[]> {
  return (await ledgerDifferences(db, tableName, companyId)).map(
    (difference) => `${companyId} ${difference.currency} ${difference.bucket}: balance ${difference.balance}, postings ${difference.postings}`,
  );
}

/** The ledger check over every company in the table: companies checked, entries, mismatches. */
export async function checkAllLedgers(db: DynamoDBDocumentClient, tableName: string): Promise<{ companies: number; mismatches: string[] }> {
  const ids = await allCompanyIds(db, tableName);
  const mismatches: string[] = [];
  for (const id of ids) mismatches.push(...(await ledgerMismatches(db, tableName, id)));
  return { companies: ids.length, mismatches };
}

/** A company's event ids (its EVENT# items). */
export async function eventIdsOf(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<string[]> {
  return (await storedEvents(db, tableName, companyId)).map((event) => event.id);
}

/** Events still waiting for the dispatcher (the sparse GSI1 partition). */
export async function undispatchedCount(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    // Select COUNT: DynamoDB counts the partition without returning its items.
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': eventItem.undispatchedPartition },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}
