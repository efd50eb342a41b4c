import { describe, expect, it } from 'vitest';
import { requireStanding, type Membership, type MemberStanding } from '#functions/people/team';

const developer: Membership = { companyId: 'cmp_01JA0000000000000000000000', personId: 'person-1', email: 'dev@example.com', role: 'Developer', createdAt: '2026-11-26T10:00:00.000Z' };
const standing = (over: Partial<MemberStanding>): MemberStanding => ({ membership: developer, twoFactorRequired: false, twoFactorOn: false, ...over });
const refusal = (call: () => unknown) => {
  try {
    call();
    return null;
  } catch (error) {
    return { code: (error as { code?: string }).code, details: (error as { details?: unknown }).details };
  }
};

describe('requireStanding', () => {
  it('lets a member act within their role whatever the rule when they have two-factor sign-in on', () => {
    expect(requireStanding(standing({ twoFactorRequired: true, twoFactorOn: true }), 'manageKeys')).toEqual(developer);
    expect(requireStanding(standing({}), 'manageKeys')).toEqual(developer);
  });

  it('refuses a member without two-factor sign-in everything in a company that requires it, reads too', () => {
    for (const permission of ['read', 'manageKeys'] as const) {
      expect(refusal(() => requireStanding(standing({ twoFactorRequired: true }), permission))).toEqual({ code: 'FORBIDDEN', details: { reason: 'TWO_FACTOR_REQUIRED' } });
    }
  });

  it('tells a stranger only that the company is not found, rule or not', () => {
    expect(refusal(() => requireStanding(standing({ membership: null, twoFactorRequired: true }), 'read'))).toEqual({ code: 'NOT_FOUND', details: null });
  });

  it('still checks the role once the rule is met', () => {
    expect(refusal(() => requireStanding(standing({ twoFactorRequired: true, twoFactorOn: true }), 'manageTeam'))).toMatchObject({ code: 'FORBIDDEN', details: null });
  });
});
