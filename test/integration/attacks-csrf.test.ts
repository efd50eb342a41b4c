import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { dashboardBrowser, signedUpOwner, STRONG_PASSWORD, uniqueEmail, verifyTokenMailedTo } from '../support/dashboard.ts';
import { mailsTo } from '../support/outbox.ts';
import { cookiesSet, rawDashboardRequest } from '../support/raw-dashboard-request.ts';

/**
 * Issue #31 (Security and correctness II), items 10 and 12, replayed over a real socket against
 * the local runtime: the CSRF token is the session's own, the origin check is the whole origin,
 * cookies are `__Host-` where they are Secure, a refused session speaks of the session, and mailed
 * links never follow the request's Host header.
 */
const api = useTestApi();
const EVIL_HOST = 'evil.example';

describe('cross-site request forgery', () => {
  it("refuses another session's CSRF token, even sent as both cookie and header", async () => {
    const victim = await signedUpOwner(api.runtime, 'Victim Co');
    const attacker = await signedUpOwner(api.runtime, 'Attacker Co');
    const attackersToken = attacker.browser.jar.get('cambio_csrf')!;
    // A token planted in the victim's cookie jar (a sibling subdomain's cookie, say) and echoed.
    victim.browser.jar.set('cambio_csrf', attackersToken);

    const forged = await victim.browser.call('POST', `/companies/${victim.companyId}/api-keys`, { body: { name: 'Forged', password: STRONG_PASSWORD } });

    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('FORBIDDEN');
    const keys = await victim.browser.call('GET', `/companies/${victim.companyId}/api-keys`);
    expect(keys.body.data.map((key: { name: string }) => key.name)).not.toContain('Forged');
  });

  it('refuses a token as long as its own with a character beyond ASCII: 403, not a 500', async () => {
    const owner = await signedUpOwner(api.runtime, 'Latin Co');
    const token = owner.browser.jar.get('cambio_csrf')!;
    owner.browser.jar.set('cambio_csrf', `${token.slice(0, -1)}é`);

    const forged = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Forged', password: STRONG_PASSWORD } });

    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('FORBIDDEN');
  });

  it("keeps a session's CSRF token across a refresh, so the open page goes on working", async () => {
    const owner = await signedUpOwner(api.runtime, 'Refreshed Co');
    const before = owner.browser.jar.get('cambio_csrf');

    expect((await owner.browser.call('POST', '/session/refresh')).status).toBe(200);

    expect(owner.browser.jar.get('cambio_csrf')).toBe(before);
    expect((await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'After refresh', password: STRONG_PASSWORD } })).status).toBe(201);
  });

  it('compares the whole Origin: a user name before the host is another origin', async () => {
    const owner = await signedUpOwner(api.runtime, 'Origin Co');
    const { port } = new URL(api.runtime.apiUrl);

    for (const origin of [`http://evil@127.0.0.1:${port}`, `https://127.0.0.1:${port}`, `http://127.0.0.1:${port}/`, 'http://127.0.0.1']) {
      const forged = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Forged', password: STRONG_PASSWORD }, origin });
      expect(forged.status, origin).toBe(403);
    }
  });
});

describe('cookies', () => {
  it('are __Host- cookies (Path=/, Secure) where they are Secure, and a plain-named cookie is ignored there', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Secure Co');
    const host = { Host: 'dashboard.example.com' };

    const signedIn = await rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password: STRONG_PASSWORD }, headers: host });

    expect(signedIn.status).toBe(200);
    const set = signedIn.setCookies.filter((line) => !/Max-Age=0/.test(line));
    expect(set.map((line) => line.split('=')[0]).sort()).toEqual(['__Host-cambio_csrf', '__Host-cambio_session']);
    for (const line of set) expect(line).toMatch(/; Path=\/; .*SameSite=Strict.*; Secure$/);
    const session = cookiesSet(signedIn.setCookies)['__Host-cambio_session']!;
    expect((await rawDashboardRequest(api.runtime, 'GET', '/me', { headers: { ...host, Cookie: `__Host-cambio_session=${session}` } })).status).toBe(200);
    // The same token under the plain name, as a cookie someone else could set for the domain.
    expect((await rawDashboardRequest(api.runtime, 'GET', '/me', { headers: { ...host, Cookie: `cambio_session=${session}; other=${Math.random()}` } })).status).toBe(401);
  });

  it('keep their plain names on http://127.0.0.1, where browsers refuse __Host- without Secure', async () => {
    const browser = dashboardBrowser(api.runtime);
    const email = uniqueEmail('plain');
    await browser.call('POST', '/sign-up', { body: { companyName: 'Plain Co', email, password: STRONG_PASSWORD } });
    // The session begins where the mailed link is followed.
    const signedUp = await browser.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } });

    expect(signedUp.status).toBe(200);
    const set = signedUp.setCookies.filter((line) => !line.includes('Max-Age=0'));
    expect(set.map((line) => line.split('=')[0]).sort()).toEqual(['cambio_csrf', 'cambio_session']);
    for (const line of signedUp.setCookies) expect(line).not.toContain('Secure');
  });
});

describe('a refused session', () => {
  it('is told to sign in again, not that an API key is wrong', async () => {
    const stranger = dashboardBrowser(api.runtime);
    stranger.jar.set('cambio_session', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.');

    for (const answer of [await dashboardBrowser(api.runtime).call('GET', '/me'), await stranger.call('GET', '/me')]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('AUTH_FAILED');
      expect(answer.body.error.message).toBe('Not signed in, or the session has ended: sign in again');
    }
  });
});

describe('mailed links', () => {
  it("point at the dashboard's configured origin whatever Host the request names: a password reset", async () => {
    const { email } = await signedUpOwner(api.runtime, 'Reset Host Co');

    const asked = await rawDashboardRequest(api.runtime, 'POST', '/password-reset', { body: { email }, headers: { Host: EVIL_HOST } });

    expect(asked.status).toBe(202);
    const [mail] = mailsTo(api.runtime.outboxDir, email);
    expect(mail!.text).toContain(`${new URL(api.runtime.apiUrl).origin}/dashboard/reset-password?token=`);
    expect(mail!.text).not.toContain(EVIL_HOST);
  });

  it('… and an invitation', async () => {
    const { email, companyId } = await signedUpOwner(api.runtime, 'Invite Host Co');
    const host = { Host: EVIL_HOST };
    const signedIn = await rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password: STRONG_PASSWORD }, headers: host });
    const cookies = cookiesSet(signedIn.setCookies);
    // Whichever names the cookies have (__Host- for a non-loopback host), sent back as a browser would.
    const csrf = Object.entries(cookies).find(([name]) => name.endsWith('cambio_csrf'))![1];
    const invitee = uniqueEmail('invitee');

    const invited = await rawDashboardRequest(api.runtime, 'POST', `/companies/${companyId}/team/invitations`, {
      body: { email: invitee, role: 'Developer', password: STRONG_PASSWORD },
      headers: { ...host, Cookie: Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '), 'X-CSRF-Token': csrf },
    });

    expect(invited.status).toBe(201);
    const [mail] = mailsTo(api.runtime.outboxDir, invitee);
    expect(mail!.text).toContain(`${new URL(api.runtime.apiUrl).origin}/dashboard/accept-invitation?token=`);
    expect(mail!.text).not.toContain(EVIL_HOST);
  });
});
