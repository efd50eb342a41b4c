import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { creditAvailable } from '../support/money.ts';
import { apiClient, fundHotWallet, newCompany, startTestApi } from '../support/local-api.ts';
import { jsonLines } from '../support/log-lines.ts';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';

/**
 * What the logs hold after real requests through the local gateway: one line per request keyed by
 * its X-Request-Id, the authorizer's refusal under the same id, a job run under its own id, the
 * metrics as EMF, and none of the secrets that passed through (credentials, the webhook signing
 * secret, the Idempotency-Key, the hot wallet and deposit keys, the signed transaction).
 * The handlers read the log level when first imported, which happens inside startTestApi.
 */
process.env.LOG_LEVEL = 'DEBUG';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

let runtime: LocalRuntime;
const written: string[] = [];
const capture = (chunk: unknown) => {
  written.push(String(chunk));
  return true;
};

beforeAll(async () => {
  runtime = await startTestApi();
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await runtime?.stop();
});

const lines = () => jsonLines(written);

describe('logs and metrics', () => {
  it('log one line per request and per job run, carry EMF metrics, and never a secret', async () => {
    const company = await newCompany(runtime, 'Observed Co');
    const db = createDocumentClient(runtime.dynamoEndpoint);
    await creditAvailable(db, runtime.tableName, company.companyId, 'USDT', '100');
    await fundHotWallet(runtime, '100');
    const wrongSecret = `sk_test_wrong_${'x'.repeat(40)}`;
    const idempotencyKey = `idem-${crypto.randomUUID()}`;
    const address = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 424_242);

    const balance = await company.call('GET', '/company/balance');
    const refused = await apiClient(runtime, { apiKey: company.credentials.apiKey, apiSecret: wrongSecret })('GET', '/company/balance');
    const withdrawal = await company.call('POST', '/withdrawals', {
      body: { method: 'usdt', network: 'tron', address, amount: '10', reference: 'observed-1' },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    const replay = await company.call('POST', '/withdrawals', {
      body: { method: 'usdt', network: 'tron', address, amount: '10', reference: 'observed-1' },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    const webhook = await company.call('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } });
    const sender = await import('../../functions/handlers/jobs/withdrawal-sender.ts');
    await sender.handler({}, { awsRequestId: 'run-observed-1' } as never);

    expect([balance.status, refused.status, withdrawal.status, replay.status, webhook.status]).toEqual([200, 401, 201, 201, 201]);
    const logged = lines();
    const requestLine = (response: { headers: Headers }) =>
      logged.filter((line) => line.message === 'request' && line.correlation_id === response.headers.get('x-request-id'));
    expect(requestLine(balance)).toEqual([
      expect.objectContaining({ level: 'INFO', route: 'GET /v1/company/balance', status: 200, code: null, companyId: company.companyId, latencyMs: expect.any(Number) }),
    ]);
    expect(requestLine(withdrawal)).toEqual([expect.objectContaining({ route: 'POST /v1/withdrawals', status: 201, companyId: company.companyId })]);
    expect(requestLine(replay)).toEqual([expect.objectContaining({ status: 201, replayed: true })]);
    // The refusal never reaches a handler: the authorizer's line carries the request's id.
    expect(logged.filter((line) => line.correlation_id === refused.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'authorizer denied', service: 'cambio' }),
    ]);
    expect(logged.filter((line) => line.correlation_id === 'run-observed-1')).toEqual([
      expect.objectContaining({ message: 'withdrawal send', outcome: expect.objectContaining({ sent: expect.objectContaining({ sent: 1 }) }) }),
    ]);

    // Embedded metric format: requests by route and status class, the authorizer's refusals, the sender's counters.
    const emf = logged.filter((line) => line._aws);
    expect(requestLine(balance)[0]).toMatchObject({ statusClass: '2xx', Requests: 1, _aws: { CloudWatchMetrics: [{ Namespace: 'Cambio', Dimensions: [['service', 'stage', 'route', 'statusClass']] }] } });
    expect(emf.some((line) => line.AuthFailures === 1 && line.stage === 'local')).toBe(true);
    // TRON's sender publishes its hot wallet's TRX standing each run (the alarm HotWalletGasLowTron reads it): the local treasury has plenty.
    expect(emf.some((line) => line.WithdrawalsSent === 1 && line.WithdrawalsStuckProcessing === 0 && line.HotWalletGasLow === 0)).toBe(true);

    const stored = await db.send(new GetCommand({ TableName: runtime.tableName, Key: withdrawalItem.key(company.companyId, withdrawal.body.data.id) }));
    const signedTransaction = JSON.parse(stored.Item!.transaction.signed);
    const secrets = {
      apiKey: company.credentials.apiKey,
      apiSecret: company.credentials.apiSecret,
      wrongSecret,
      idempotencyKey,
      webhookSecret: webhook.body.data.secret,
      signature: signedTransaction.signature[0],
      signedRawData: signedTransaction.raw_data_hex,
      hotWalletKey: STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!,
      depositXprv: STAGES.local.functionEnvironment.LOCAL_DEPOSIT_ACCOUNT_XPRV!,
      withdrawalAddress: address,
    };
    const all = written.join('');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toMatch(/\S{16,}/);
      expect(all.includes(value), `${name} appears in the logs`).toBe(false);
    }
    db.destroy();
  });
});
