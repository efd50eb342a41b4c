import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toBigInt } from '#adapters/dynamo/client';
import { keys } from '#adapters/dynamo/keys';
import { BUCKETS, companyAccount } from '#domain/ledger';
import { CURRENCIES } from '#domain/money';

/**
 * After-run checks: every company's balance buckets equal the sum of its ledger postings (the logic
 * of test/support/money.ts expectLedgerMatchesBalances, without vitest), and events' delivery.
 */

async function queryAll(db: DynamoDBDocumentClient, tableName: string, pk: string, prefix: string) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every company in the table (its PROFILE item). */
export async function allCompanyIds(db: DynamoDBDocumentClient, tableName: string): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'SK = :profile AND begins_with(PK, :company)',
        ExpressionAttributeValues: { ':profile': 'PROFILE', ':company': 'COMPANY#' },
        ProjectionExpression: 'PK',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.PK).slice('COMPANY#'.length));
    start = page.LastEvaluatedKey;
  } while (start);
  return ids;
}

/** Differences between a company's balance buckets and the sums of its postings (empty: they match). */
export async function ledgerMismatches(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<string[]> {
  const { PK, skPrefix } = keys.ledgerOf(companyId);
  const entries = await queryAll(db, tableName, PK, skPrefix);
  const balances = await queryAll(db, tableName, keys.balancesOf(companyId).PK, keys.balancesOf(companyId).skPrefix);
  const mismatches: string[] = [];
  for (const currency of CURRENCIES) {
    const balance = balances.find((item) => item.currency === currency);
    for (const bucket of BUCKETS) {
      const account = companyAccount(companyId, bucket);
      let sum = 0n;
      for (const entry of entries) {
        for (const posting of entry.postings as { source: string; destination: string; asset: string; amount: unknown }[]) {
          if (posting.asset !== currency) continue;
          if (posting.destination === account) sum += toBigInt(posting.amount);
          if (posting.source === account) sum -= toBigInt(posting.amount);
        }
      }
      const stored = toBigInt(balance?.[bucket] ?? 0n);
      if (stored !== sum) mismatches.push(`${companyId} ${currency} ${bucket}: balance ${stored}, postings ${sum}`);
    }
  }
  return mismatches;
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
  const items = await queryAll(db, tableName, `COMPANY#${companyId}`, 'EVENT#');
  return items.map((item) => String(item.id));
}

/** Events still waiting for the dispatcher (the sparse GSI1 partition). */
export async function undispatchedCount(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.undispatchedEvent('x').GSI1PK },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}
