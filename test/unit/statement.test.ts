import { describe, expect, it } from 'vitest';
import type { BalanceRow } from '#functions/companies/company';
import type { Caller } from '#functions/people/caller';
import { companyAccount, networkAccount, ledgerEntry, type LedgerEntry } from '#functions/ledger/ledger';
import { statementCsv, statementPeriod, type StatementStore } from '#functions/companies/statement';

const companyId = 'cmp_01JA0000000000000000000000';
const caller = { membership: { companyId, personId: 'p', email: 'o@example.com', role: 'Owner', createdAt: '' }, origin: { sourceIp: '', userAgent: null } } as Caller;
const credit = (amount: bigint, at: string): LedgerEntry =>
  ledgerEntry(companyId, `credit:${amount}`, [{ source: networkAccount('tron'), destination: companyAccount(companyId, 'available'), currency: 'USDT', amount }], new Date(at));
const usdt = (available: bigint, updatedAt: string): BalanceRow[] => [
  { currency: 'USDT', available, pending: 0n, locked: 0n, held: 0n, updatedAt },
  { currency: 'BRL', available: 0n, pending: 0n, locked: 0n, held: 0n, updatedAt: '2026-11-01T00:00:00.000Z' },
];

/**
 * An entry that commits between the statement's read of the balances and its read of the entries:
 * the store's state moves on once, as the table's would; the statement must read again rather than
 * open on a balance that does not match the entries.
 */
function storeWithACommitInBetween(): StatementStore & { balanceReads: number } {
  const first = credit(5_000_000n, '2026-11-20T10:00:00.000Z');
  const late = credit(2_000_000n, '2026-11-26T09:00:00.000Z');
  let committed = false;
  const store = {
    balanceReads: 0,
    async getBalances() {
      store.balanceReads += 1;
      const balances = committed ? usdt(7_000_000n, late.createdAt) : usdt(5_000_000n, first.createdAt);
      // The late entry commits right after the first read.
      committed = true;
      return balances;
    },
    async *ledgerEntries(_companyId: string, range: { fromMs: number; toMs?: number }) {
      const entries = [first, ...(committed ? [late] : [])].filter((e) => Date.parse(e.createdAt) >= range.fromMs && (range.toMs === undefined || Date.parse(e.createdAt) < range.toMs));
      if (entries.length) yield entries;
    },
  };
  return store;
}

async function csvOf(store: StatementStore, period: { from: string; to: string }): Promise<string[][]> {
  let text = '';
  for await (const piece of statementCsv(store, caller, period, new Date('2026-11-26T12:00:00.000Z'))) text += piece;
  return text.trim().split('\n').slice(1).map((line) => line.split(','));
}

describe('the statement', () => {
  it('reads again when an entry commits between the balances and the entries, so the opening agrees with both', async () => {
    const store = storeWithACommitInBetween();

    const lines = await csvOf(store, { from: '2026-11-01', to: '2026-11-26' });

    expect(store.balanceReads).toBe(4);
    expect(lines.filter((line) => line[4] === 'USDT').map((line) => [line[0], line[8]])).toEqual([
      ['opening', '0.000000'],
      ['entry', '5.000000'],
      ['entry', '7.000000'],
      ['closing', '7.000000'],
    ]);
  });

  it("downloads a long period of a company whose payments keep coming: each long read of its history outrun by a commit", async () => {
    // A year of entries, and a credit committing during every read of the whole history (never
    // during the short read of what came last): the company's steady flow of deposits.
    const history = Array.from({ length: 2_000 }, (_, i) => credit(1_000_000n, new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 3_600_000).toISOString()));
    let clock = Date.parse('2026-11-26T10:00:00.000Z');
    const balance = () => usdt(history.reduce((sum, entry) => sum + entry.postings[0]!.amount, 0n), history.at(-1)!.createdAt);
    const store: StatementStore = {
      getBalances: async () => balance(),
      async *ledgerEntries(_companyId, range) {
        const wanted = history.filter((e) => Date.parse(e.createdAt) >= range.fromMs && (range.toMs === undefined || Date.parse(e.createdAt) < range.toMs));
        const long = wanted.length > 100;
        for (let i = 0; i < wanted.length; i += 500) {
          yield wanted.slice(i, i + 500);
          if (long && i === 0) history.push(credit(1_000_000n, new Date((clock += 1_000)).toISOString()));
        }
      },
    };

    const lines = await csvOf(store, { from: '2026-01-01', to: '2026-11-26' });

    const usdtLines = lines.filter((line) => line[4] === 'USDT');
    expect(usdtLines[0]!.slice(0, 1).concat(usdtLines[0]![8]!)).toEqual(['opening', '0.000000']);
    const closing = usdtLines.at(-1)!;
    expect(closing[0]).toBe('closing');
    // Opening plus every entry line is the closing.
    expect(closing[8]).toBe(`${usdtLines.filter((line) => line[0] === 'entry').length}.000000`);
  });

  it('opens the period of a company whose money moves within every short read from the entries before it', async () => {
    // Entries before the period and in it; a new credit commits on every read of the balances, so
    // no two reads ever agree.
    const history = [credit(3_000_000n, '2026-10-05T10:00:00.000Z'), credit(4_000_000n, '2026-10-20T10:00:00.000Z'), credit(1_000_000n, '2026-11-03T10:00:00.000Z')];
    let clock = Date.parse('2026-11-26T11:00:00.000Z');
    const store: StatementStore = {
      async getBalances() {
        history.push(credit(500_000n, new Date((clock += 100)).toISOString()));
        return usdt(history.reduce((sum, entry) => sum + entry.postings[0]!.amount, 0n), history.at(-1)!.createdAt);
      },
      async *ledgerEntries(_companyId, range) {
        yield history.filter((e) => Date.parse(e.createdAt) >= range.fromMs && (range.toMs === undefined || Date.parse(e.createdAt) < range.toMs));
      },
    };

    const usdtLines = (await csvOf(store, { from: '2026-11-01', to: '2026-11-25' })).filter((line) => line[4] === 'USDT').map((line) => [line[0], line[8]]);

    expect(usdtLines).toEqual([
      ['opening', '7.000000'],
      ['entry', '8.000000'],
      ['closing', '8.000000'],
    ]);
  });

  it('opens a period after the entries on the balance they left', async () => {
    const lines = await csvOf(storeWithACommitInBetween(), { from: '2026-11-21', to: '2026-11-25' });

    expect(lines.filter((line) => line[4] === 'USDT').map((line) => [line[0], line[8]])).toEqual([
      ['opening', '5.000000'],
      ['closing', '5.000000'],
    ]);
  });

  it('takes whole UTC days: the end of `to` is the start of the next day', () => {
    expect(statementPeriod({ from: '2026-11-01', to: '2026-11-01' }, new Date('2026-11-26T00:00:00Z'))).toMatchObject({
      fromMs: Date.parse('2026-11-01T00:00:00Z'),
      toMs: Date.parse('2026-11-02T00:00:00Z'),
    });
  });
});
