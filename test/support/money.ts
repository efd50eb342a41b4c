import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { ledgerDifferences } from './ledger.ts';

export { creditAvailable } from './ledger.ts';

/** Every balance bucket of the company equals the sum of its ledger postings, to the unit. */
export async function expectLedgerMatchesBalances(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<void> {
  expect(await ledgerDifferences(db, tableName, companyId), `ledger of ${companyId}`).toEqual([]);
}
