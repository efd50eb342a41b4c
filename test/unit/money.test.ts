import { describe, expect, it } from 'vitest';
import { AmountFormatError, formatAmount, parseAmount } from '#functions/shared/money';

describe('parseAmount', () => {
  it('reads decimal strings into integer minor units at the currency scale', () => {
    expect(parseAmount('10.5', 'USDT')).toBe(10_500_000n);
    expect(parseAmount('0.000001', 'USDT')).toBe(1n);
    expect(parseAmount('54', 'BRL')).toBe(5_400n);
    expect(parseAmount('0.01', 'BRL')).toBe(1n);
    expect(parseAmount('999999999999.999999', 'USDT')).toBe(999_999_999_999_999_999n);
  });

  it.each([
    ['zero', '0'],
    ['zero with decimals', '0.000000'],
    ['negative', '-1'],
    ['exponent', '1e3'],
    ['too many decimals', '0.0000001'],
    ['leading plus', '+1'],
    ['leading zero', '01'],
    ['bare fraction', '.5'],
    ['trailing dot', '5.'],
    ['spaces', ' 1'],
    ['hex', '0x10'],
    ['huge', '1000000000000'],
    ['empty', ''],
  ])('rejects %s as USDT (%s)', (_, value) => {
    expect(() => parseAmount(value, 'USDT')).toThrow(AmountFormatError);
  });

  it.each([
    ['too many decimals', '1.001'],
    ['comma decimal', '1,5'],
  ])('rejects %s as BRL (%s)', (_, value) => {
    expect(() => parseAmount(value, 'BRL')).toThrow(AmountFormatError);
  });

  it('rejects JSON numbers and other non-strings, however exact they look', () => {
    for (const value of [1, 1.5, null, undefined, true, {}, ['1']]) {
      expect(() => parseAmount(value, 'USDT')).toThrow(AmountFormatError);
    }
  });
});

describe('formatAmount', () => {
  it('always prints the full scale of the currency', () => {
    expect(formatAmount(10_500_000n, 'USDT')).toBe('10.500000');
    expect(formatAmount(5_400n, 'BRL')).toBe('54.00');
    expect(formatAmount(0n, 'USDT')).toBe('0.000000');
    expect(formatAmount(1n, 'BRL')).toBe('0.01');
    expect(formatAmount(-250n, 'BRL')).toBe('-2.50');
  });

  it('round-trips every parsed amount exactly', () => {
    for (const value of ['1.000000', '0.000001', '123456789012.345678']) {
      expect(formatAmount(parseAmount(value, 'USDT'), 'USDT')).toBe(value);
    }
  });
});
