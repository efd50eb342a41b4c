import { base32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { totpCode, totpMatches } from '#local/totp';

// RFC 6238 appendix B, SHA-1: the key is the ASCII of "12345678901234567890"; the RFC prints 8
// digits, an authenticator shows their last 6.
const RFC_SECRET = base32.encode(new TextEncoder().encode('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('at %i s gives the RFC’s code', (seconds, rfc) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(rfc.slice(-6));
  });

  it('accepts the neighbouring steps only, and nothing that is not six digits', () => {
    const at = 1_700_000_000_000;
    expect(totpMatches(RFC_SECRET, totpCode(RFC_SECRET, at - 30_000), at)).toBe(true);
    expect(totpMatches(RFC_SECRET, totpCode(RFC_SECRET, at + 30_000), at)).toBe(true);
    expect(totpMatches(RFC_SECRET, totpCode(RFC_SECRET, at - 90_000), at)).toBe(false);
    expect(totpMatches(RFC_SECRET, 'abcdef', at)).toBe(false);
  });
});
