import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { freshTable } from '../support/dynamo.ts';
import { creditAvailable, ledgerDifferences } from '../support/ledger.ts';
import { balanceItem } from '#adapters/dynamo/items/balance';

/** The check every money test ends with must itself catch a balance that drifted from its ledger. */
describe('the ledger check the money tests rely on', () => {
  it('passes when balances follow the postings, and names the bucket that drifted when one does not', async () => {
    const { db, tableName } = await freshTable();
    const { company } = await createCompany(new DynamoCompanyStore(db, tableName), { name: 'Audit', environment: 'sandbox' });
    await creditAvailable(db, tableName, company.id, 'USDT', '12.5');
    expect(await ledgerDifferences(db, tableName, company.id)).toEqual([]);

    // A write that changes a balance without a ledger entry: exactly what must never happen.
    await db.send(
      new UpdateCommand({ TableName: tableName, Key: balanceItem.key(company.id, 'USDT'), UpdateExpression: 'SET locked = locked + :one', ExpressionAttributeValues: { ':one': 1n } }),
    );
    expect(await ledgerDifferences(db, tableName, company.id)).toEqual([{ currency: 'USDT', bucket: 'locked', balance: 1n, postings: 0n }]);
  });
});
