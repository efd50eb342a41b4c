import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import type { Caller } from '#functions/people/caller';
import { companyAccount, ledgerEntry, networkAccount } from '#functions/ledger/ledger';
import { DayPostings } from '#functions/ledger/ledger-csv';
import { statementCsv } from '#functions/companies/statement';
import { DynamoStatementStore } from '#adapters/dynamo/statement-store';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { balanceItem } from '#adapters/dynamo/items/balance';
import { useFreshTable } from '../support/dynamo.ts';

/**
 * An entry made near a UTC midnight is on the same day in the company's statement (which selects
 * entries by their ids' time, functions/adapters/dynamo/statement-store.ts) and in finance's day
 * file (by `createdAt`, functions/ledger/ledger-csv.ts). The deposit confirmer builds an entry with a
 * `now` taken before an await while other deposits' entries are built meanwhile with later times:
 * an id that took the later time (ulid's monotonic factory never goes back) put one entry on two
 * different days (functions/shared/ids.ts).
 */
const table = useFreshTable();
const companyId = 'cmp_01JA0000000000000000000001';
const caller = { membership: { companyId, personId: 'p', email: 'o@example.com', role: 'Owner', createdAt: '' }, origin: { sourceIp: '', userAgent: null } } as Caller;
const credit = (reference: string, at: string) =>
  ledgerEntry(companyId, reference, [{ source: networkAccount('tron'), destination: companyAccount(companyId, 'available'), currency: 'USDT', amount: 1_000_000n }], new Date(at));

describe('an entry made near midnight', () => {
  it('is on the same day in the statement and in the finance day file, whichever entry was made first', async () => {
    const parallel = credit('deposit:dep_A:confirmed:aa:0', '2027-01-16T00:00:00.004Z'); // another group's build
    const late = credit('deposit:dep_B:confirmed:bb:0', '2027-01-15T23:59:59.996Z'); // now() taken before an await
    expect(new Date(decodeTime(late.id.slice(4))).toISOString()).toBe(late.createdAt);

    for (const entry of [parallel, late]) await table.db.send(new PutCommand({ TableName: table.tableName, Item: ledgerEntryItem.toItem(entry) }));
    for (const row of [
      { currency: 'USDT' as const, available: 2_000_000n, pending: 0n, locked: 0n, held: 0n, updatedAt: parallel.createdAt },
      { currency: 'BRL' as const, available: 0n, pending: 0n, locked: 0n, held: 0n, updatedAt: parallel.createdAt },
    ]) await table.db.send(new PutCommand({ TableName: table.tableName, Item: balanceItem.toItem(companyId, row) }));

    const day = new DayPostings(['2027-01-15']);
    for (const entry of [parallel, late]) day.add(entry);
    expect([...day.file('2027-01-15')].join('')).toContain(late.id);

    let csv = '';
    for await (const piece of statementCsv(new DynamoStatementStore(table.db, table.tableName), caller, { from: '2027-01-15', to: '2027-01-15' }, new Date('2027-01-17T00:00:00.000Z'))) csv += piece;
    expect(csv).toContain(late.id);
    expect(csv).not.toContain(parallel.id);
    // Its closing for 2027-01-15 holds the 1 USDT credit finance's file for that day holds.
    expect(csv).toContain('closing,2027-01-16T00:00:00.000Z,,,USDT,,,,1.000000');
  });
});
