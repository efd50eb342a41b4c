import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '#functions/shared/retry';
import { isTronAddress, tronAddressFromHex } from '#functions/networks/tron/tron-address';

// tronweb is the reference implementation here only (tron-notes, Size).
const ADDRESSES = ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'];

describe('tronAddressFromHex', () => {
  it.each(ADDRESSES)('turns the 0x form of TronGrid events and the 41 form of java-tron into %s', (base58) => {
    const hex41 = TronWeb.address.toHex(base58);

    expect(tronAddressFromHex(`0x${hex41.slice(2)}`)).toBe(base58);
    expect(tronAddressFromHex(hex41)).toBe(base58);
    expect(tronAddressFromHex(hex41.toUpperCase())).toBe(base58);
    expect(isTronAddress(tronAddressFromHex(hex41))).toBe(true);
  });

  it.each([
    ['a base58 address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['19 bytes', `0x${'ab'.repeat(19)}`],
    ['21 bytes after 0x', `0x41${'ab'.repeat(20)}`],
    ['a wrong prefix', `42${'ab'.repeat(20)}`],
    ['non-hex', `0x${'zz'.repeat(20)}`],
    ['the string tronweb passes through', 'hello'],
  ])('refuses %s', (_, value) => {
    expect(() => tronAddressFromHex(value)).toThrow(/Not a hex TRON address/);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');

    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 2 ', now)).toBe(2_000);
    expect(parseRetryAfter('Fri, 01 May 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Fri, 01 May 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
