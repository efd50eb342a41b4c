import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { totpCode } from '#local/totp';
import { useTestApi } from '../support/local-api.ts';
import { cookieHeader, dashboardBrowser, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD } from '../support/dashboard.ts';

/**
 * A stolen session cookie against the authenticator app (issue #31, item 3), through the local
 * runtime's dashboard API: once the person's own sign-in is older than RECENT_SECONDS, the app can
 * be neither set up again, replaced nor turned off, even with the password and a current code.
 * A file of its own so the window can be short here and long where tests need it recent.
 *
 * Nor can someone who holds such a cookie borrow their own fresh session's recent sign-in for it:
 * a request carrying two session cookies (two Cookie lines, in either order or case, or two in one
 * line) is refused before anything runs, and a route acts only on the session the authorizer verified.
 */
const RECENT_SECONDS = 8;
const api = useTestApi(undefined, { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: String(RECENT_SECONDS) } });

describe('the authenticator app, from an old session', () => {
  it(`is neither replaced nor turned off from a session signed in over ${RECENT_SECONDS} s ago, whatever the proof`, async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Old Session Co');
    await new Promise((resolve) => setTimeout(resolve, (RECENT_SECONDS + 1) * 1000));
    const proof = { password: STRONG_PASSWORD, currentCode: await owner.app() };
    const attempts: [string, object][] = [
      ['/me/two-factor/setup', proof],
      ['/me/two-factor/confirm', { code: '123456' }],
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

/** A request written on the socket as is, header lines and all: fetch and node:http would merge two Cookie lines into one. */
function rawCall(url: string, method: string, headerLines: [string, string][], body: unknown): Promise<{ status: number; body: any }> {
  const { hostname, port, pathname } = new URL(url);
  const payload = JSON.stringify(body);
  const lines = [`${method} ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`];
  for (const [name, value] of headerLines) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n${payload}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
      let rest = text.slice(text.indexOf('\r\n\r\n') + 4);
      // A chunked answer: keep the JSON between the chunk sizes.
      if (/transfer-encoding: chunked/i.test(text)) rest = rest.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status, body: JSON.parse(rest || 'null') });
    });
  });
}

describe("someone else's old session cookie, sent beside one's own fresh session", () => {
  it("sets up, confirms, turns off nothing and changes no password: every such request is refused, and the victim's two-factor sign-in stays as it was", async () => {
    const victim = await signedUpOwner(api.runtime, 'Victim Co');
    const victimSession = `cambio_session=${victim.browser.jar.get('cambio_session')!}`;
    // The victim's own session is now too old for any route that asks for a recent sign-in.
    await new Promise((resolve) => setTimeout(resolve, (RECENT_SECONDS + 1) * 1000));
    const stale = await victim.browser.call('POST', '/me/two-factor/setup', { body: {} });
    expect(stale.status).toBe(403);
    expect(stale.body.error.details.reason).toBe('SIGN_IN_AGAIN');

    // Signed in just now, with two-factor sign-in of their own (so they can give a code and their password).
    const attacker = await signedUpOwnerWithTwoFactor(api.runtime, 'Attacker Co');
    const attackerCookies = cookieHeader(attacker.browser.jar);
    const common: [string, string][] = [
      ['Origin', attacker.browser.origin],
      ['X-CSRF-Token', attacker.browser.jar.get('cambio_csrf')!],
    ];
    const ways: [string, [string, string][]][] = [
      ['their own Cookie line first, the stolen one second', [['Cookie', attackerCookies], ['cookie', victimSession]]],
      ['the stolen Cookie line first, their own second', [['cookie', victimSession], ['Cookie', attackerCookies]]],
      ['both session cookies in one Cookie line', [['Cookie', `${attackerCookies}; ${victimSession}`]]],
    ];
    // A code of the attacker's app is right now; none is used up, as nothing reaches the user pool.
    const attempts: [string, (code: string) => object][] = [
      ['/me/two-factor/setup', (code) => ({ password: STRONG_PASSWORD, currentCode: code })],
      ['/me/two-factor/confirm', (code) => ({ code })],
      ['/me/two-factor/turn-off', (code) => ({ password: STRONG_PASSWORD, code })],
      ['/me/password', () => ({ currentPassword: STRONG_PASSWORD, newPassword: `${STRONG_PASSWORD}-taken` })],
    ];
    const base = `${attacker.browser.origin}/dashboard/api`;
    const auditActions = async () => {
      const of = async (browser: ReturnType<typeof dashboardBrowser>, companyId: string) =>
        ((await browser.call('GET', `/companies/${companyId}/audit-log`)).body.data as { action: string }[]).map((entry) => entry.action);
      return { victim: await of(victim.browser, victim.companyId), attacker: await of(attacker.browser, attacker.companyId) };
    };
    const before = await auditActions();
    for (const [way, cookieLines] of ways) {
      for (const [path, body] of attempts) {
        const refused = await rawCall(`${base}${path}`, 'POST', [...common, ...cookieLines], body(totpCode(attacker.secret)));
        expect(refused.status, `${path}, ${way}: ${JSON.stringify(refused.body)}`).toBe(401);
        expect(refused.body.error.code).toBe('AUTH_FAILED');
      }
    }

    // The victim signs in with their password alone, as before: no authenticator app was set up on
    // their account, and their password is the one they chose.
    const again = dashboardBrowser(api.runtime);
    const signIn = await again.call('POST', '/session', { body: { email: victim.email, password: STRONG_PASSWORD } });
    expect(signIn.body.data).toEqual({ signedIn: true });
    expect((await again.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    // Neither company's audit log has a new entry about two-factor sign-in or a password.
    const after = await auditActions();
    expect(after.victim.filter((action) => /^(two_factor|password)\./.test(action))).toEqual([]);
    expect(after.attacker).toEqual(before.attacker);
    // The attacker's own session, alone, still works: only the pairing was refused.
    expect((await attacker.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
  }, 120_000);
});
