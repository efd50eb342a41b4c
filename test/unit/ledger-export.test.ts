import { describe, expect, it } from 'vitest';
import { companyAccount, ledgerEntry, networkAccount } from '#functions/ledger/ledger';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { ledgerReport } from '#local/ledger-export';

const companyId = 'cmp_01JA0000000000000000000001';

describe('npm run ledger:csv on postings with no Balance item', () => {
  it('reports each bucket the postings name, held included, as a difference', () => {
    const at = new Date('2026-11-29T10:00:00.000Z');
    const recorded = ledgerEntry(companyId, 'deposit:dep_A:recorded:aa:0', [{ source: networkAccount('tron'), destination: companyAccount(companyId, 'pending'), currency: 'USDT', amount: 7_000_000n }], at);
    const held = ledgerEntry(companyId, 'deposit:dep_A:held:aa:0', [{ source: companyAccount(companyId, 'pending'), destination: companyAccount(companyId, 'held'), currency: 'USDT', amount: 7_000_000n }], at);

    const report = ledgerReport([ledgerEntryItem.toItem(recorded), ledgerEntryItem.toItem(held)]);

    expect(report.mismatches).toEqual([{ companyId, asset: 'USDT', bucket: 'held', balance: '0.000000', postings: '7.000000', difference: '-7.000000' }]);
  });
});
