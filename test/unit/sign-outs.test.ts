import { describe, expect, it } from 'vitest';
import { endedBySignOut, signOutEverywhere, type SignOut } from '#functions/people/sign-outs';

const signOut: SignOut = { personId: 'p1', at: '2026-11-23T12:00:00.700Z', originJti: 'session-a' };
const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('endedBySignOut', () => {
  it('ends tokens issued before the sign-out second, whatever session they belong to', () => {
    expect(endedBySignOut({ personId: 'p1', issuedAt: second('2026-11-23T11:59:59Z'), originJti: 'session-b' }, signOut)).toBe(true);
  });

  it("ends the signed-out session's tokens issued in the sign-out second", () => {
    expect(endedBySignOut({ personId: 'p1', issuedAt: second('2026-11-23T12:00:00Z'), originJti: 'session-a' }, signOut)).toBe(true);
  });

  it('leaves a new sign-in in the same second, a later one, and other people alone', () => {
    expect(endedBySignOut({ personId: 'p1', issuedAt: second('2026-11-23T12:00:00Z'), originJti: 'session-c' }, signOut)).toBe(false);
    expect(endedBySignOut({ personId: 'p1', issuedAt: second('2026-11-23T12:00:01Z'), originJti: 'session-d' }, signOut)).toBe(false);
    expect(endedBySignOut({ personId: 'p2', issuedAt: 0, originJti: 'session-a' }, signOut)).toBe(false);
    expect(endedBySignOut({ personId: 'p1', issuedAt: 0, originJti: null }, null)).toBe(false);
  });
});

describe('signOutEverywhere', () => {
  it('records the sign-out before revoking the refresh tokens, and does nothing without a live session', async () => {
    const steps: string[] = [];
    const signOuts = { record: async (s: SignOut) => void steps.push(`record ${s.personId} ${s.originJti}`), lastOf: async () => null };
    const revokeRefreshTokens = async () => void steps.push('revoke');
    await signOutEverywhere({ personId: 'p1', sessionId: 'session-a' }, { signOuts, revokeRefreshTokens });
    await signOutEverywhere(null, { signOuts, revokeRefreshTokens });
    expect(steps).toEqual(['record p1 session-a', 'revoke']);
  });
});
