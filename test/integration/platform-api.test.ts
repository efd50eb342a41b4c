import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { AUTH_FAILED_MESSAGE } from '#functions/shared/errors';
import type { LocalRuntime } from '#local/runtime';
import { apiClient, startTestApi, type ApiCall } from '../support/local-api.ts';

let runtime: LocalRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await startTestApi();
  call = apiClient(runtime);
});

afterAll(async () => {
  await runtime?.stop();
});

const authFailed = { success: false, error: { code: 'AUTH_FAILED', message: AUTH_FAILED_MESSAGE, details: null } };

function expectAuthFailed(response: ApiCall) {
  expect(response.status).toBe(401);
  expect(response.body).toEqual(authFailed);
}

describe('GET /v1/company', () => {
  it('answers the seeded sandbox company in the envelope', async () => {
    const response = await call('GET', '/company');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: runtime.sandbox.companyId,
        name: 'Sandbox Company',
        environment: 'sandbox',
        status: 'active',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        // Every new company is at the standard tier; these are the sandbox stage's figures for it.
        rateLimit: { tier: 'standard', requestsPerSecond: 10, burst: 20 },
      },
    });
  });
});

describe('GET /v1/company/balance', () => {
  it('gives a new company zero balances in USDT and BRL at full scale', async () => {
    const response = await call('GET', '/company/balance');
    expect(response.status).toBe(200);
    expect(response.body.data.balances).toEqual([
      { currency: 'USDT', available: '0.000000', pending: '0.000000', locked: '0.000000' },
      { currency: 'BRL', available: '0.00', pending: '0.00', locked: '0.00' },
    ]);
    expect(response.body.data.updatedAt).toMatch(/Z$/);
  });
});

describe('authentication', () => {
  it('refuses a missing key, a missing secret, or neither, with 401 AUTH_FAILED', async () => {
    expectAuthFailed(await call('GET', '/company', { auth: false }));
    expectAuthFailed(await call('GET', '/company', { auth: false, headers: { 'X-Api-Key': runtime.sandbox.apiKey } }));
    expectAuthFailed(await call('GET', '/company', { auth: false, headers: { 'X-Api-Secret': runtime.sandbox.apiSecret } }));
    expectAuthFailed(await call('GET', '/company', { headers: { 'X-Api-Key': '', 'X-Api-Secret': '' } }));
  });

  it('answers an unknown key and a wrong secret identically', async () => {
    const unknownKey = await call('GET', '/company/balance', { headers: { 'X-Api-Key': 'ck_test_AAAAAAAAAAAAAAAAAAAAAAAA' } });
    const wrongSecret = await call('GET', '/company/balance', { headers: { 'X-Api-Secret': `${runtime.sandbox.apiSecret}x` } });
    const malformedKey = await call('GET', '/company/balance', { headers: { 'X-Api-Key': 'not-a-key' } });
    for (const response of [unknownKey, wrongSecret, malformedKey]) expectAuthFailed(response);
    expect(unknownKey.text).toBe(wrongSecret.text);
  });

  it('never lets a cached allow admit a wrong secret', async () => {
    expect((await call('GET', '/company')).status).toBe(200);
    expectAuthFailed(await call('GET', '/company', { headers: { 'X-Api-Secret': 'cs_test_wrong' } }));
    expect((await call('GET', '/company')).status).toBe(200);
  });

  it('accepts header names in any case, as HTTP allows', async () => {
    const response = await call('GET', '/company', {
      auth: false,
      headers: { 'x-api-key': runtime.sandbox.apiKey, 'X-API-SECRET': runtime.sandbox.apiSecret },
    });
    expect(response.status).toBe(200);
  });
});

describe('companies are isolated', () => {
  it('each key sees its own company and balance, never another', async () => {
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const { company, credentials } = await createCompany(new DynamoCompanyStore(db, runtime.tableName), {
      name: 'Acme',
      environment: 'sandbox',
    });
    const acme = apiClient(runtime, credentials);

    const mine = await acme('GET', '/company');
    expect(mine.body.data).toMatchObject({ id: company.id, name: 'Acme' });
    expect(mine.body.data.id).not.toBe(runtime.sandbox.companyId);
    expect((await call('GET', '/company')).body.data.id).toBe(runtime.sandbox.companyId);

    // Acme's key with the sandbox company's secret is refused: a secret belongs to one key.
    expectAuthFailed(await acme('GET', '/company', { headers: { 'X-Api-Secret': runtime.sandbox.apiSecret } }));
  });
});

describe('unknown routes', () => {
  it('answer 404 NOT_FOUND in the envelope, before authentication, as API Gateway does', async () => {
    for (const [method, path] of [
      ['GET', '/nothing'],
      ['DELETE', '/company'],
      ['POST', '/company/balance'],
    ] as const) {
      const response = await call(method, path, { auth: false });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.any(String), details: null },
      });
    }
  });
});
