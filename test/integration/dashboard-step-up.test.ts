import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';

/**
 * Asking for a recent sign-in (functions/domain/step-up.ts, as GitHub's sudo mode) through the
 * dashboard API against the local runtime, with DASHBOARD_RECENT_SIGN_IN_SECONDS at 2 so a session
 * grows old within the test: issuing or rolling an API key, changing where one may be used from,
 * inviting a member, changing a role, adding a webhook endpoint, rolling its secret or giving it a
 * new URL is refused with 403 FORBIDDEN `reason: SIGN_IN_AGAIN` once the password is older than
 * that, writing nothing; `Confirm it's you` (POST /session/confirm)
 * signs the person in afresh, and the same request then passes.
 */
const api = useTestApi(undefined, { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: '2' } });
const older = () => new Promise((resolve) => setTimeout(resolve, 3_200));

describe('a recent sign-in for what issues lasting access', () => {
  it('lets a fresh session issue a key; an older one is refused every such change until it confirms its password', async () => {
    const owner = await signedUpOwner(api.runtime, 'Sudo Co');
    const base = `/companies/${owner.companyId}`;
    const made = await owner.browser.call('POST', `${base}/api-keys`, { body: { name: 'Fresh' } });
    expect(made.status).toBe(201);
    const keyId = made.body.data.key.keyId as string;
    const hook = await owner.browser.call('POST', `${base}/webhooks`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } });
    expect(hook.status).toBe(201);
    const webhookId = hook.body.data.id as string;

    await older();
    const keysBefore = (await owner.browser.call('GET', `${base}/api-keys`)).body.data;
    const webhooksBefore = (await owner.browser.call('GET', `${base}/webhooks`)).body.data;
    const team = (await owner.browser.call('GET', `${base}/team`)).body.data;
    const attempts: [string, string, unknown][] = [
      ['POST', `${base}/api-keys`, { name: 'Stale' }],
      ['POST', `${base}/api-keys/${keyId}/roll`, { oldSecretValidFor: 'now' }],
      ['PUT', `${base}/api-keys/${keyId}/allowed-ips`, { allowedIps: ['198.51.100.7'] }],
      ['POST', `${base}/team/invitations`, { email: uniqueEmail('late'), role: 'Admin' }],
      ['PUT', `${base}/team/members/${encodeURIComponent(team.members[0].personId)}`, { role: 'Admin' }],
      // Both show a signing secret, with which events could be forged to the company's servers.
      ['POST', `${base}/webhooks`, { url: 'http://127.0.0.1:9/other', events: ['*'] }],
      ['POST', `${base}/webhooks/${webhookId}/roll-secret`, undefined],
      // A new URL is where the company's events would go from now on.
      ['PUT', `${base}/webhooks/${webhookId}`, { url: 'http://127.0.0.1:9/elsewhere', events: ['*'] }],
    ];
    for (const [method, path, body] of attempts) {
      const refused = await owner.browser.call(method, path, { body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'SIGN_IN_AGAIN', withinSeconds: 2 } });
    }
    expect((await owner.browser.call('GET', `${base}/api-keys`)).body.data).toEqual(keysBefore);
    expect((await owner.browser.call('GET', `${base}/team`)).body.data).toEqual(team);
    expect((await owner.browser.call('GET', `${base}/webhooks`)).body.data).toEqual(webhooksBefore);

    const wrong = await owner.browser.call('POST', '/session/confirm', { body: { password: 'not it' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'password', message: 'is wrong' }]);
    const confirmed = await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.setCookies.some((line) => line.startsWith('cambio_session='))).toBe(true);
    expect((await owner.browser.call('POST', `${base}/api-keys`, { body: { name: 'Confirmed' } })).status).toBe(201);

    const audit = (await owner.browser.call('GET', `${base}/audit-log`)).body.data as { action: string }[];
    expect(audit.map((entry) => entry.action).slice(0, 2)).toEqual(['api_key.created', 'signed_in']);
  }, 30_000);

  it('leaves reading and the other changes to any signed-in session', async () => {
    const owner = await signedUpOwner(api.runtime, 'Reading Co');
    const hook = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } });
    await older();
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/api-keys`)).status).toBe(200);
    expect((await owner.browser.call('PUT', `/companies/${owner.companyId}/withdrawal-limit`, { body: { dailyLimit: '100' } })).status).toBe(200);
    // The same URL: switching the endpoint off, or changing its events, sends nothing anywhere new.
    const switched = await owner.browser.call('PUT', `/companies/${owner.companyId}/webhooks/${hook.body.data.id}`, {
      body: { url: 'http://127.0.0.1:9/hooks', events: ['deposit.completed'], enabled: false },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ enabled: false, events: ['deposit.completed'] });
  }, 30_000);
});
