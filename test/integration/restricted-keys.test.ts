import { describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { rollSecret } from '#functions/api-keys/api-keys';
import { auditEntry } from '#functions/companies/audit-log';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { companyItems, invitedMember, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD } from '../support/dashboard.ts';
import { mailsTo } from '../support/outbox.ts';
import { creditAvailable } from '../support/money.ts';

/**
 * Read-only API keys and keys with allowed IPs (as Stripe's restricted keys and IP limits) through real sockets against the local runtime:
 * a key made with `access: read` reads every /v1 route and is refused every change with 403
 * FORBIDDEN before its body is read or its Idempotency-Key claimed, so nothing is written; a full
 * key of the same company is unaffected.
 */
const api = useTestApi();

async function companyWithKeys() {
  const owner = await signedUpOwner(api.runtime, 'Reporting Co');
  const key = async (name: string, access?: string) => {
    const made = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name, ...(access && { access }), password: STRONG_PASSWORD } });
    expect(made.status).toBe(201);
    return { call: apiClient(api.runtime, made.body.data), view: made.body.data.key };
  };
  await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '100');
  return { ...owner, full: await key('Payouts'), read: await key('BI tool', 'read') };
}

describe('a read-only API key', () => {
  it('reads every kind of record, and is refused every change with 403 FORBIDDEN, writing nothing', async () => {
    const { companyId, full, read } = await companyWithKeys();
    expect(full.view.access).toBe('full');
    expect(read.view.access).toBe('read');
    const deposit = await full.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'order-1' } });
    expect(deposit.status).toBe(201);

    for (const path of ['/company', '/company/balance', `/deposits/${deposit.body.data.id}`, '/conversions', '/webhooks']) {
      expect((await read.call('GET', path)).status, path).toBe(200);
    }
    const before = await companyItems(api.db, api.runtime, companyId);
    const writes: [string, string, unknown][] = [
      ['POST', '/deposits', { method: 'usdt', network: 'tron', reference: 'order-2' }],
      ['POST', '/withdrawals', { method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '10', reference: 'payout-1' }],
      ['POST', '/conversions/quote', { sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' }],
      ['POST', '/webhooks', { url: 'https://example.com/hooks', events: ['*'] }],
      ['PUT', '/webhooks/whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5', { url: 'https://example.com/hooks', events: ['*'] }],
      ['DELETE', '/webhooks/whk_01JBZ6W1V7Q8R9S0T1A2V3W4X5', undefined],
    ];
    for (const [method, path, body] of writes) {
      const refused = await read.call(method, path, { body, headers: { 'Idempotency-Key': `ro-${method}-${path}` } });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('read-only') });
    }
    // Refused before the body is read: a broken body changes nothing.
    expect((await read.call('POST', '/withdrawals', { rawBody: '{not json', headers: { 'Content-Type': 'application/json' } })).status).toBe(403);
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);

    // The full key of the same company still changes things.
    expect((await full.call('POST', '/withdrawals', { body: writes[1]![2] })).status).toBe(201);
  });

  it('is made only with a known access, and its creation is audited with it', async () => {
    const owner = await signedUpOwner(api.runtime, 'Audited Co');
    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'x', access: 'write' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'access', message: 'must be full or read' }]);
    await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Reports', access: 'read' } });
    const [entry] = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data;
    expect(entry).toMatchObject({ action: 'api_key.created', details: { name: 'Reports', access: 'read' } });
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/api-keys`)).body.data).toEqual([expect.objectContaining({ name: 'Reports', access: 'read' })]);
  });

  it('with allowed IPs, is refused from any other address with 403 before anything is written, and works from an allowed one', async () => {
    const owner = await signedUpOwner(api.runtime, 'Fenced Co');
    const make = async (name: string, allowedIps: string[]) => {
      const made = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name, allowedIps, password: STRONG_PASSWORD } });
      expect(made.status, name).toBe(201);
      return { call: apiClient(api.runtime, made.body.data), view: made.body.data.key };
    };
    // The local runtime's clients come from loopback.
    const elsewhere = await make('Office only', ['203.0.113.0/24', '2001:db8::/32']);
    const here = await make('This machine', ['127.0.0.1', '203.0.113.0/24']);
    expect(elsewhere.view.allowedIps).toEqual(['203.0.113.0/24', '2001:db8::/32']);

    const before = await companyItems(api.db, api.runtime, owner.companyId);
    for (const [method, path] of [['GET', '/company'], ['POST', '/deposits']] as const) {
      const refused = await elsewhere.call(method, path, { body: method === 'POST' ? { method: 'usdt', network: 'tron', reference: 'fenced' } : undefined });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('may not be used from 127.0.0.1') });
    }
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    // Refused, yet its people see where the key turned up: the last use and its address.
    const listed = (await owner.browser.call('GET', `/companies/${owner.companyId}/api-keys`)).body.data as { name: string; lastUsedAt: string | null; lastUsedIp: string | null }[];
    expect(listed.find((key) => key.name === 'Office only')).toMatchObject({ lastUsedAt: expect.any(String), lastUsedIp: '127.0.0.1' });
    expect(listed.find((key) => key.name === 'This machine')).toMatchObject({ lastUsedAt: null, lastUsedIp: null });
    expect((await here.call('GET', '/company')).status).toBe(200);
    expect((await here.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'from-here' } })).status).toBe(201);
  });

  it('has its allowed IPs changed without a new secret, each way, audited; a wrong entry changes nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Moved Co');
    const make = async (name: string, allowedIps: string[]) => {
      const made = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name, allowedIps, password: STRONG_PASSWORD } });
      return { call: apiClient(api.runtime, made.body.data), keyId: made.body.data.key.keyId as string };
    };
    const change = (keyId: string, allowedIps: string[]) => owner.browser.call('PUT', `/companies/${owner.companyId}/api-keys/${keyId}/allowed-ips`, { body: { allowedIps } });
    // Neither key has called /v1 yet, so no cached answer stands between the change and the check.
    const widened = await make('Moved to here', ['203.0.113.0/24']);
    const narrowed = await make('Moved away', ['127.0.0.1']);

    const wide = await change(widened.keyId, ['203.0.113.0/24', ' 127.0.0.1 ', '', '127.0.0.1']);
    expect(wide.status).toBe(200);
    expect(wide.body.data).toMatchObject({ keyId: widened.keyId, status: 'active', allowedIps: ['203.0.113.0/24', '127.0.0.1'] });
    expect((await widened.call('GET', '/company')).status).toBe(200);

    expect((await change(narrowed.keyId, ['203.0.113.0/24'])).status).toBe(200);
    const refused = await narrowed.call('GET', '/company');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('may not be used from 127.0.0.1');

    const before = await companyItems(api.db, api.runtime, owner.companyId);
    const wrong = await change(narrowed.keyId, ['127.0.0.1', 'office.example.com']);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'allowedIps.1', message: '"office.example.com" is not an IP address or CIDR block' }]);
    expect((await change('key_unknown', [])).status).toBe(404);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);

    // Emptied: any address again.
    expect((await change(widened.keyId, [])).body.data.allowedIps).toBeNull();
    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data;
    expect(audit.slice(0, 3)).toEqual([
      expect.objectContaining({ action: 'api_key.allowed_ips_changed', target: widened.keyId, details: { allowedIps: 'any' } }),
      expect.objectContaining({ action: 'api_key.allowed_ips_changed', target: narrowed.keyId, details: { allowedIps: '203.0.113.0/24' } }),
      expect.objectContaining({ action: 'api_key.allowed_ips_changed', target: widened.keyId, details: { allowedIps: '203.0.113.0/24 127.0.0.1' } }),
    ]);
  });

  it('mails a new key, a new secret, a change of allowed IPs and a revocation to the Owners and Admins, not to Developers or Viewers', async () => {
    const owner = await signedUpOwner(api.runtime, 'Watched Co');
    const members = Object.fromEntries(
      await Promise.all(['Admin', 'Developer', 'Viewer'].map(async (role) => [role, await invitedMember(api.runtime, owner.browser, owner.companyId, role)] as const)),
    );
    // A Developer issues the key: the people who manage the team hear of it.
    const developer = members.Developer!;
    const made = await developer.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Payout bot', allowedIps: ['203.0.113.0/24'], password: STRONG_PASSWORD } });
    const keyId = made.body.data.key.keyId as string;
    await developer.browser.call('POST', `/companies/${owner.companyId}/api-keys/${keyId}/roll`, { body: { oldSecretValidFor: 'now', password: STRONG_PASSWORD } });
    await developer.browser.call('PUT', `/companies/${owner.companyId}/api-keys/${keyId}/allowed-ips`, { body: { allowedIps: [] } });
    await developer.browser.call('POST', `/companies/${owner.companyId}/api-keys/${keyId}/revoke`);

    const keyMails = (email: string) => mailsTo(api.runtime.outboxDir, email).filter((mail) => mail.text.includes(keyId));
    for (const email of [owner.email, members.Admin!.email]) {
      expect(keyMails(email).map((mail) => mail.subject)).toEqual(['New API key for Watched Co', 'New API key secret for Watched Co', 'API key allowed IPs changed for Watched Co', 'API key revoked for Watched Co']);
    }
    const [created, , widened, revoked] = keyMails(owner.email);
    expect(revoked!.text).toContain(`${developer.email} revoked Watched Co's API key "Payout bot" (${keyId}): the API refuses every request made with it, within a minute`);
    expect(revoked!.text).toContain('create a new key for the systems that used this one');
    expect(created!.text).toContain(`${developer.email} created the API key "Payout bot" (${keyId}) for Watched Co, with full access, from 203.0.113.0/24, at `);
    expect(created!.text).toContain('from 127.0.0.1.');
    expect(created!.text).toContain('Integrations → API keys → Revoke');
    expect(widened!.text).toContain('it now has full access, from any address');
    expect(keyMails(developer.email)).toEqual([]);
    expect(keyMails(members.Viewer!.email)).toEqual([]);
  });

  it('refuses allowed IPs that are not addresses or CIDR blocks, naming the entry', async () => {
    const owner = await signedUpOwner(api.runtime, 'Typo Co');
    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'x', allowedIps: ['203.0.113.7', 'office.example.com'], password: STRONG_PASSWORD } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'allowedIps.1', message: '"office.example.com" is not an IP address or CIDR block' }]);
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/api-keys`)).body.data).toEqual([]);
  });
});


/**
 * A full-access key's secret pays out through POST /v1/withdrawals, so the dashboard issues one, or a
 * new secret for one, only on the person's password (and authenticator code) given with the request,
 * as `New withdrawal` asks (functions/api-keys/key-management.ts). A session cookie copied from a
 * browser, however recent its sign-in, then mints no way to move the company's money.
 */
describe('a full-access key, issued on the person’s password as New withdrawal is', () => {
  it('is refused to the session alone and to a wrong password, writing and mailing nothing; a read-only key is not asked', async () => {
    const owner = await signedUpOwner(api.runtime, 'Copied Cookie Co');
    const keys = `/companies/${owner.companyId}/api-keys`;
    const before = await companyItems(api.db, api.runtime, owner.companyId);
    const mailsBefore = mailsTo(api.runtime.outboxDir, owner.email).length;

    const bare = await owner.browser.call('POST', keys, { body: { name: 'Payouts' } });
    expect(bare.status).toBe(400);
    expect(bare.body.error.details).toEqual([{ path: 'password', message: 'is needed: a full-access key can send withdrawals' }]);
    const wrong = await owner.browser.call('POST', keys, { body: { name: 'Payouts', password: 'Not-The-Password-1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'password', message: 'is wrong' }]);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    expect(mailsTo(api.runtime.outboxDir, owner.email)).toHaveLength(mailsBefore);

    const made = await owner.browser.call('POST', keys, { body: { name: 'Payouts', password: STRONG_PASSWORD } });
    expect(made.status).toBe(201);
    expect(made.body.data.key).toMatchObject({ name: 'Payouts', access: 'full' });
    const roll = (keyId: string, proof: object) => owner.browser.call('POST', `${keys}/${keyId}/roll`, { body: { oldSecretValidFor: 'now', ...proof } });
    const rollBare = await roll(made.body.data.apiKey, {});
    expect(rollBare.status).toBe(400);
    expect(rollBare.body.error.details).toEqual([{ path: 'password', message: 'is needed: a full-access key can send withdrawals' }]);
    // The refused roll changed nothing: the secret issued still works.
    expect((await apiClient(api.runtime, made.body.data)('GET', '/company')).status).toBe(200);
    expect((await roll(made.body.data.apiKey, { password: STRONG_PASSWORD })).status).toBe(200);

    // A read-only key moves no money: a recent sign-in is enough, for it and for its new secret.
    const reader = await owner.browser.call('POST', keys, { body: { name: 'Reports', access: 'read' } });
    expect(reader.status).toBe(201);
    expect((await roll(reader.body.data.apiKey, {})).status).toBe(200);
  });

  it('asks a person with two-factor sign-in on for their code as well', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Two Factor Keys');
    const keys = `/companies/${owner.companyId}/api-keys`;
    const noCode = await owner.browser.call('POST', keys, { body: { name: 'Payouts', password: STRONG_PASSWORD } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details).toEqual([{ path: 'code', message: 'is needed: the 6 digits your authenticator app shows' }]);
    const made = await owner.browser.call('POST', keys, { body: { name: 'Payouts', password: STRONG_PASSWORD, code: await owner.app() } });
    expect(made.status).toBe(201);
    expect((await owner.browser.call('GET', keys)).body.data).toEqual([expect.objectContaining({ name: 'Payouts', access: 'full' })]);
  });
});

describe('a key changed by two people at once', () => {
  it('keeps the allowed IPs an edit set while a roll that read the key before it was checking its password', async () => {
    const owner = await signedUpOwner(api.runtime, 'Racing Co');
    const keys = `/companies/${owner.companyId}/api-keys`;
    const made = await owner.browser.call('POST', keys, { body: { name: 'Payouts', password: STRONG_PASSWORD } });
    const keyId = made.body.data.apiKey as string;
    const store = new DynamoApiKeyStore(api.db, api.runtime.tableName);
    // The roll has read the key (no allowed IPs) and is asking the user pool for the password...
    const readByRoll = (await store.findApiKey(keyId))!;
    // ...when someone else restricts the key.
    expect((await owner.browser.call('PUT', `${keys}/${keyId}/allowed-ips`, { body: { allowedIps: ['203.0.113.0/24'] } })).status).toBe(200);
    const now = new Date();
    const { apiSecret, record } = rollSecret(readByRoll, 'now', now);
    await store.updateApiKey(readByRoll, record, auditEntry(owner.companyId, 'api_key.rolled', { personId: null, email: null }, { sourceIp: '127.0.0.1', userAgent: null }, now, keyId, { oldSecretValidFor: 'now' }));

    expect((await store.findApiKey(keyId))!.allowedIps).toEqual(['203.0.113.0/24']);
    expect((await owner.browser.call('GET', keys)).body.data[0]).toMatchObject({ keyId, allowedIps: ['203.0.113.0/24'] });
    // The new secret works, from the allowed block only (this test's requests come from 127.0.0.1).
    expect((await apiClient(api.runtime, { apiKey: keyId, apiSecret })('GET', '/company')).status).toBe(403);
  });

  it('keeps the list an Edit allowed IPs answered with, even when it equals the list that edit read before another edit', async () => {
    const owner = await signedUpOwner(api.runtime, 'Two Editors Co');
    const keys = `/companies/${owner.companyId}/api-keys`;
    const made = await owner.browser.call('POST', keys, { body: { name: 'Payouts', allowedIps: ['203.0.113.7'], password: STRONG_PASSWORD } });
    const keyId = made.body.data.apiKey as string;
    const store = new DynamoApiKeyStore(api.db, api.runtime.tableName);
    // One editor has read the key ([203.0.113.7]) and saves that same list...
    const readByFirst = (await store.findApiKey(keyId))!;
    // ...after a second editor has saved another.
    expect((await owner.browser.call('PUT', `${keys}/${keyId}/allowed-ips`, { body: { allowedIps: ['198.51.100.0/24'] } })).status).toBe(200);
    const now = new Date();
    await store.updateApiKey(readByFirst, { ...readByFirst }, auditEntry(owner.companyId, 'api_key.allowed_ips_changed', { personId: null, email: null }, { sourceIp: '127.0.0.1', userAgent: null }, now, keyId, { allowedIps: '203.0.113.7' }), ['allowedIps']);

    // The last answer said 203.0.113.7: the key holds it.
    expect((await owner.browser.call('GET', keys)).body.data[0]).toMatchObject({ keyId, allowedIps: ['203.0.113.7'] });
  });
});
