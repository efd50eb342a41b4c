import { describe, expect, it } from 'vitest';
import { readTwoFactorCookie, TWO_FACTOR_COOKIE, twoFactorCookie } from '#functions/http/cookies';

/** The pending two-factor sign-in's cookie is the browser's to edit (functions/http/cookies.ts). */
describe('the two-factor challenge cookie', () => {
  const valueOf = (setCookie: string) => setCookie.split(';')[0]!.split('=')[1]!;
  const edited = (challenge: object) => ({ [TWO_FACTOR_COOKIE]: Buffer.from(JSON.stringify(challenge)).toString('base64url') });

  it('reads back the sign-in it was set for', () => {
    const challenge = { email: 'Ana@Example.com', session: 'cognito-session' };
    expect(readTwoFactorCookie({ [TWO_FACTOR_COOKIE]: valueOf(twoFactorCookie(challenge, true)) })).toEqual(challenge);
  });

  it("is no sign-in when edited to name the person by their Cognito username (their sub), which would count their wrong codes apart", () => {
    expect(readTwoFactorCookie(edited({ email: '6c2f1f5e-0b7a-4d1e-9a53-2f7d1c0e8b11', session: 'cognito-session' }))).toBeNull();
    expect(readTwoFactorCookie(edited({ email: 'ana@example.com', session: 'cognito-session' }))).toEqual({ email: 'ana@example.com', session: 'cognito-session' });
  });

  it('is no sign-in when it is not ours', () => {
    expect(readTwoFactorCookie({ [TWO_FACTOR_COOKIE]: 'not-base64-json' })).toBeNull();
    expect(readTwoFactorCookie(edited({ email: 'ana@example.com' }))).toBeNull();
    expect(readTwoFactorCookie({})).toBeNull();
  });
});
