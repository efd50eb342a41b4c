import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { isId, newId } from '#functions/shared/ids';

describe('ids', () => {
  it('are prefixed ULIDs that sort by creation time', () => {
    const first = newId('deposit', 1_700_000_000_000);
    const second = newId('deposit', 1_700_000_000_001);
    expect(first).toMatch(/^dep_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first < second).toBe(true);
  });

  it('ids minted in the same millisecond still sort in creation order', () => {
    const ids = Array.from({ length: 50 }, () => newId('event', 1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
  });

  it('carry the time they are made for, even when an id for a later time was made before', () => {
    const later = newId('ledgerEntry', Date.parse('2027-01-16T00:00:00.004Z'));
    const earlier = newId('ledgerEntry', Date.parse('2027-01-15T23:59:59.996Z'));
    expect(new Date(decodeTime(earlier.slice(4))).toISOString()).toBe('2027-01-15T23:59:59.996Z');
    expect(earlier < later).toBe(true);
  });

  it('recognises only well-formed ids of the asked kind', () => {
    const id = newId('withdrawal');
    expect(isId('withdrawal', id)).toBe(true);
    expect(isId('deposit', id)).toBe(false);
    expect(isId('withdrawal', `${id}x`)).toBe(false);
    expect(isId('withdrawal', id.toLowerCase())).toBe(false);
    expect(isId('withdrawal', 'wdr_../../etc')).toBe(false);
    expect(isId('withdrawal', 42)).toBe(false);
  });
});
