import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { signedUpOwnerWithTwoFactor, STRONG_PASSWORD } from '../support/dashboard.ts';

/**
 * A stolen session cookie against the authenticator app (issue #31, item 3), through the local
 * runtime's dashboard API: once the person's own sign-in is older than RECENT_SECONDS, the app can
 * be neither set up again, replaced nor turned off, even with the password and a current code.
 * A file of its own so the window can be short here and long where tests need it recent.
 */
const RECENT_SECONDS = 8;
const api = useTestApi(undefined, { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: String(RECENT_SECONDS) } });

describe('the authenticator app, from an old session', () => {
  it(`is neither replaced nor turned off from a session signed in over ${RECENT_SECONDS} s ago, whatever the proof`, async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Old Session Co');
    await new Promise((resolve) => setTimeout(resolve, (RECENT_SECONDS + 1) * 1000));
    const proof = { password: STRONG_PASSWORD, currentCode: await owner.app() };
    const attempts: [string, object][] = [
      ['/me/two-factor/setup', {}],
      ['/me/two-factor/confirm', { code: '123456', ...proof }],
      ['/me/two-factor/turn-off', { password: STRONG_PASSWORD, code: proof.currentCode }],
    ];
    for (const [path, body] of attempts) {
      const refused = await owner.browser.call('POST', path, { body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.details).toMatchObject({ reason: 'SIGN_IN_AGAIN' });
    }
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
  }, 60_000);
});
