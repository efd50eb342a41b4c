import { readdirSync } from 'node:fs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCode } from '#local/totp';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DASHBOARD_ROUTES } from '#functions/routes';
import { useTestApi } from '../support/local-api.ts';
import { invitedMember, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';

/**
 * Asking for a recent sign-in (functions/people/step-up.ts, as GitHub's sudo mode) through the
 * dashboard API against the local runtime, with DASHBOARD_RECENT_SIGN_IN_SECONDS at 5 so a session
 * grows old within the test (and its setup, a busy machine's few seconds, fits in it). Every route the route table marks `recentSignIn: 'always'` (functions/
 * routes.ts) is refused with 403 FORBIDDEN `reason: SIGN_IN_AGAIN` once the password is older than
 * that, writing nothing and mailing no one; `Confirm it's you` (POST /session/confirm) signs the
 * person in afresh, and the same requests then pass, so each refusal was the sign-in's age alone.
 */
const WINDOW_SECONDS = 5;
const api = useTestApi(undefined, { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS) } });
const older = () => new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 1_200));

const tableItems = async () => {
  const { Items = [] } = await api.db.send(new ScanCommand({ TableName: api.runtime.tableName, ConsistentRead: true }));
  return Items.map((item) => JSON.stringify(item)).sort();
};
const outboxFiles = () => readdirSync(api.runtime.outboxDir).sort();

describe('a recent sign-in for what adds a person, raises a role, mints a credential or moves money or events', () => {
  it('refuses every route the table marks, on a session signed in too long ago, until the person confirms their password', async () => {
    const owner = await signedUpOwner(api.runtime, 'Sudo Co');
    const base = `/companies/${owner.companyId}`;
    // The setup's own steps want a recent sign-in too, and a busy machine takes seconds over them.
    const admin = await invitedMember(api.runtime, await confirmed(owner.browser), owner.companyId, 'Admin');
    const keyId = (await (await confirmed(owner.browser)).call('POST', `${base}/api-keys`, { body: { name: 'Fresh', password: STRONG_PASSWORD } })).body.data.key.keyId as string;
    const webhookId = (await (await confirmed(owner.browser)).call('POST', `${base}/webhooks`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } })).body.data.id as string;
    const invitationId = await pendingInvitationId(await confirmed(owner.browser), base);
    let { secret } = (await owner.browser.call('POST', '/me/two-factor/setup', { body: {} })).body.data as { secret: string };

    // A request each marked route would carry from the page: valid, so only the sign-in's age refuses it.
    const ids: Record<string, string> = { companyId: owner.companyId, keyId, webhookId, invitationId, personId: admin.personId };
    const bodies: Record<string, () => unknown> = {
      'start-two-factor-setup': () => ({}),
      'confirm-two-factor': () => ({ code: totpCode(secret) }),
      'turn-off-two-factor': () => ({ password: STRONG_PASSWORD, code: '123456' }),
      'change-api-key-allowed-ips': () => ({ allowedIps: ['198.51.100.7'] }),
      // Both show a signing secret, with which events could be forged to the company's servers.
      'add-webhook': () => ({ url: 'http://127.0.0.1:9/other', events: ['*'] }),
      'roll-webhook-secret': () => undefined,
      'change-two-factor-requirement': () => ({ required: false }),
      // A new link to a pending invitation is a new way in, as the invitation was.
      'resend-invitation': () => ({}),
      'switch-withdrawal-allowlist': () => ({ enabled: true }),
      'add-withdrawal-address': () => ({ network: 'tron', address: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_101), label: 'Treasury' }),
      'change-withdrawal-limit': () => ({ dailyLimit: '100' }),
    };
    const marked = DASHBOARD_ROUTES.filter((route) => route.recentSignIn === 'always').map((route) => ({
      name: route.handler.slice('dashboard/'.length),
      method: route.method,
      path: route.path.slice('/dashboard/api'.length).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]!)),
    }));
    expect(marked.map((route) => route.name).sort()).toEqual(Object.keys(bodies).sort());

    await older();
    const [itemsBefore, mailsBefore] = [await tableItems(), outboxFiles()];
    for (const route of marked) {
      const refused = await owner.browser.call(route.method, route.path, { body: bodies[route.name]!() });
      expect(refused.status, route.name).toBe(403);
      expect(refused.body.error, route.name).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'SIGN_IN_AGAIN', withinSeconds: WINDOW_SECONDS } });
    }
    expect(await tableItems()).toEqual(itemsBefore);
    expect(outboxFiles()).toEqual(mailsBefore);
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });

    const wrong = await owner.browser.call('POST', '/session/confirm', { body: { password: 'not it' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'password', message: 'is wrong' }]);
    const confirmation = await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } });
    expect(confirmation.status).toBe(200);
    expect(confirmation.setCookies.some((line) => line.startsWith('cambio_session='))).toBe(true);
    // Two-factor sign-in last, set up then confirmed: once it is on, confirming takes a code too.
    // Turning it off again, with its password and code, passes in attacks-two-factor.test.ts.
    const ownFactorLast = ['start-two-factor-setup', 'confirm-two-factor'];
    const inOrder = [...marked.filter((route) => !ownFactorLast.includes(route.name) && route.name !== 'turn-off-two-factor'), ...ownFactorLast.map((name) => marked.find((route) => route.name === name)!)];
    for (const route of inOrder) {
      const passed = await (await confirmed(owner.browser)).call(route.method, route.path, { body: bodies[route.name]!() });
      expect(passed.status, `${route.name}: ${JSON.stringify(passed.body)}`).toBeLessThan(300);
      if (route.name === 'start-two-factor-setup') secret = (passed.body.data as { secret: string }).secret;
    }
  }, 90_000);

  it('asks a webhook edit for it only when the URL changes, a read-only key or a Viewer only for themselves, and leaves reading and the other changes to any signed-in session', async () => {
    const owner = await signedUpOwner(api.runtime, 'Reading Co');
    const base = `/companies/${owner.companyId}`;
    const hook = await (await confirmed(owner.browser)).call('POST', `${base}/webhooks`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } });
    const keyId = (await (await confirmed(owner.browser)).call('POST', `${base}/api-keys`, { body: { name: 'Old', password: STRONG_PASSWORD } })).body.data.key.keyId as string;
    const readerId = (await (await confirmed(owner.browser)).call('POST', `${base}/api-keys`, { body: { name: 'Reader', access: 'read' } })).body.data.key.keyId as string;
    await older();
    const moved = await owner.browser.call('PUT', `${base}/webhooks/${hook.body.data.id}`, { body: { url: 'http://127.0.0.1:9/elsewhere', events: ['*'] } });
    expect(moved.status).toBe(403);
    expect(moved.body.error.details).toMatchObject({ reason: 'SIGN_IN_AGAIN' });
    expect((await owner.browser.call('GET', `${base}/api-keys`)).status).toBe(200);
    // A read-only key, or its new secret, asks for the recent sign-in; a full-access key asks for the
    // password in its own body, a sign-in of now, so the session's age does not matter to it.
    for (const [path, body] of [[`${base}/api-keys`, { name: 'Reports', access: 'read' }], [`${base}/api-keys/${readerId}/roll`, { oldSecretValidFor: 'now' }]] as const) {
      const refused = await owner.browser.call('POST', path, { body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.details, path).toMatchObject({ reason: 'SIGN_IN_AGAIN' });
    }
    expect((await owner.browser.call('POST', `${base}/api-keys`, { body: { name: 'Payouts', password: STRONG_PASSWORD } })).status).toBe(201);
    expect((await owner.browser.call('POST', `${base}/api-keys/${keyId}/roll`, { body: { oldSecretValidFor: 'now', password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await owner.browser.call('POST', `${base}/api-keys/${keyId}/revoke`, { body: {} })).status).toBe(200);
    // The same for the team: a Viewer's invitation, or a lowered role, asks for the recent sign-in;
    // an invitation to a role that reaches money, or a raise, for the password in its body.
    const admin = await invitedMember(api.runtime, await confirmed(owner.browser), owner.companyId, 'Admin');
    await older();
    for (const [method, path, body] of [
      ['POST', `${base}/team/invitations`, { email: uniqueEmail('viewer'), role: 'Viewer' }],
      ['PUT', `${base}/team/members/${admin.personId}`, { role: 'Viewer' }],
    ] as const) {
      const refused = await owner.browser.call(method, path, { body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.details, path).toMatchObject({ reason: 'SIGN_IN_AGAIN' });
    }
    expect((await owner.browser.call('POST', `${base}/team/invitations`, { body: { email: uniqueEmail('admin'), role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
    expect((await owner.browser.call('PUT', `${base}/team/members/${admin.personId}`, { body: { role: 'Owner', password: STRONG_PASSWORD } })).status).toBe(200);
    // The same URL: switching the endpoint off, or changing its events, sends nothing anywhere new.
    const switched = await owner.browser.call('PUT', `${base}/webhooks/${hook.body.data.id}`, {
      body: { url: 'http://127.0.0.1:9/hooks', events: ['deposit.completed'], enabled: false },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ enabled: false, events: ['deposit.completed'] });
  }, 60_000);
});

type Browser = Awaited<ReturnType<typeof signedUpOwner>>['browser'];

async function confirmed(browser: Browser): Promise<Browser> {
  expect((await browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
  return browser;
}

async function pendingInvitationId(browser: Browser, base: string): Promise<string> {
  await browser.call('POST', `${base}/team/invitations`, { body: { email: uniqueEmail('pending'), role: 'Owner', password: STRONG_PASSWORD } });
  return (await browser.call('GET', `${base}/team`)).body.data.invitations[0].id as string;
}
