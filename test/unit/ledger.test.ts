import { describe, expect, it } from 'vitest';
import { EXTERNAL_ACCOUNTS, networkAccount, accountBalance, balanceChanges, companyAccount, ledgerEntry, networkOf } from '#functions/ledger/ledger';

const now = new Date('2026-11-22T12:00:00.000Z');
const available = companyAccount('cmp_1', 'available');
const locked = companyAccount('cmp_1', 'locked');
const pending = companyAccount('cmp_1', 'pending');

describe('ledger entries', () => {
  it("name their deposit's or withdrawal's network; one stored before entries held it is TRON's, a conversion has none", () => {
    const move = [{ source: available, destination: locked, currency: 'USDT' as const, amount: 1n }];
    expect(networkOf(ledgerEntry('cmp_1', 'deposit:dep_1:confirmed:0xab:0', move, now, 'ethereum'))).toBe('ethereum');
    expect(networkOf(ledgerEntry('cmp_1', 'withdrawal:wdr_1:hold', move, now))).toBe('tron');
    expect(networkOf(ledgerEntry('cmp_1', 'deposit:dep_1:seen:ab:0', move, now))).toBe('tron');
    expect(networkOf(ledgerEntry('cmp_1', 'conversion:cnv_1', move, now))).toBe('');
  });

  it('turn a withdrawal hold into a debit of available and a credit of locked', () => {
    const hold = ledgerEntry('cmp_1', 'withdrawal:wdr_1:hold', [
      { source: available, destination: locked, currency: 'USDT', amount: 10_000_000n },
      { source: available, destination: locked, currency: 'USDT', amount: 1_000_000n },
    ], now);
    expect(balanceChanges(hold)).toEqual(new Map([['USDT', { available: -11_000_000n, pending: 0n, locked: 11_000_000n, held: 0n }]]));
  });

  it('count postings to the outside world on the company side only', () => {
    const conversion = ledgerEntry('cmp_1', 'conversion:cnv_1', [
      { source: available, destination: EXTERNAL_ACCOUNTS.conversionDesk, currency: 'USDT', amount: 10_000_000n },
      { source: EXTERNAL_ACCOUNTS.conversionDesk, destination: available, currency: 'BRL', amount: 5_373n },
    ], now);
    expect(balanceChanges(conversion)).toEqual(
      new Map([
        ['USDT', { available: -10_000_000n, pending: 0n, locked: 0n, held: 0n }],
        ['BRL', { available: 5_373n, pending: 0n, locked: 0n, held: 0n }],
      ]),
    );
  });

  it('sum to the same balance whatever order they are read in, and balance to zero overall', () => {
    const entries = [
      ledgerEntry('cmp_1', 'deposit:seen', [{ source: networkAccount('tron'), destination: pending, currency: 'USDT', amount: 25_000_000n }], now),
      ledgerEntry('cmp_1', 'deposit:confirmed', [{ source: pending, destination: available, currency: 'USDT', amount: 25_000_000n }], now),
      ledgerEntry('cmp_1', 'withdrawal:hold', [{ source: available, destination: locked, currency: 'USDT', amount: 11_000_000n }], now),
    ];
    expect(accountBalance(entries, available, 'USDT')).toBe(14_000_000n);
    expect(accountBalance([...entries].reverse(), available, 'USDT')).toBe(14_000_000n);
    expect(accountBalance(entries, pending, 'USDT')).toBe(0n);
    const allAccounts = [available, pending, locked, networkAccount('tron')];
    expect(allAccounts.reduce((sum, account) => sum + accountBalance(entries, account, 'USDT'), 0n)).toBe(0n);
  });

  it('refuse postings that move nothing or a negative amount', () => {
    expect(() => ledgerEntry('cmp_1', 'bad', [{ source: available, destination: locked, currency: 'USDT', amount: 0n }], now)).toThrow();
    expect(() => ledgerEntry('cmp_1', 'bad', [{ source: available, destination: locked, currency: 'USDT', amount: -5n }], now)).toThrow();
    expect(() => ledgerEntry('cmp_1', 'bad', [{ source: available, destination: available, currency: 'USDT', amount: 5n }], now)).toThrow();
  });
});
