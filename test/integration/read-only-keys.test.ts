import { describe, expect, it } from 'vitest';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { companyItems, signedUpOwner } from '../support/dashboard.ts';
import { creditAvailable } from '../support/money.ts';

/**
 * Read-only API keys (as Stripe's restricted keys) through real sockets against the local runtime:
 * a key made with `access: read` reads every /v1 route and is refused every change with 403
 * FORBIDDEN before its body is read or its Idempotency-Key claimed, so nothing is written; a full
 * key of the same company is unaffected.
 */
const api = useTestApi();

async function companyWithKeys() {
  const owner = await signedUpOwner(api.runtime, 'Reporting Co');
  const key = async (name: string, access?: string) => {
    const made = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name, ...(access && { access }) } });
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
});
