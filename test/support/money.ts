import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { toBigInt } from '#adapters/dynamo/client';
import { keys } from '#adapters/dynamo/keys';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { ApiError } from '#domain/errors';
import { BUCKETS, EXTERNAL_ACCOUNTS, companyAccount, ledgerEntry, type Posting } from '#domain/ledger';
import { CURRENCIES, parseAmount, type Currency } from '#domain/money';

/**
 * Funds a company the way the chain will (a posting from the TRON network into `available`),
 * through the ledger module: the issue allows tests to credit directly; there is no funding route.
 */
export async function creditAvailable(
  db: DynamoDBDocumentClient,
  tableName: string,
  companyId: string,
  currency: Currency,
  amount: string,
): Promise<void> {
  const posting: Posting = {
    source: EXTERNAL_ACCOUNTS.tronNetwork,
    destination: companyAccount(companyId, 'available'),
    currency,
    amount: parseAmount(amount, currency),
  };
  const entry = ledgerEntry(companyId, `test-credit:${Math.random()}`, [posting], new Date());
  await new MoneyTransaction(tableName).ledger(entry, () => new ApiError('INTERNAL_ERROR', 'unreachable')).commit(db);
}

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

/** Every balance bucket of the company equals the sum of its ledger postings, to the unit. */
export async function expectLedgerMatchesBalances(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<void> {
  const { PK, skPrefix } = keys.ledgerOf(companyId);
  const entries = await queryAll(db, tableName, PK, skPrefix);
  const balances = await queryAll(db, tableName, keys.balancesOf(companyId).PK, keys.balancesOf(companyId).skPrefix);
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
      expect(toBigInt(balance?.[bucket] ?? 0n), `${currency} ${bucket} of ${companyId}`).toBe(sum);
    }
  }
}
