import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SandboxChain } from '#adapters/chain/sandbox-chain';
import { parseAmount } from '#domain/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#domain/tron-address';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../lib/stages.ts';
import { apiClient, startTestApi } from '../support/local-api.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const BLOCK_MS = 50;
let runtime: LocalRuntime;
let call: ReturnType<typeof apiClient>;
let chain: SandboxChain;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // Fast sandbox blocks, pollers and webhook loops: 19 confirmations take about a second.
  runtime = await startTestApi({
    environment: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS) },
    pollIntervalMs: 100,
    webhookIntervalMs: 100,
  });
  call = apiClient(runtime);
  chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19 });
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await runtime?.stop();
  await receiver?.stop();
});

describe('a webhook registered on the local runtime', () => {
  it('receives the deposit.completed of a deposit paid on the sandbox chain, signed so standardwebhooks verifies it', async () => {
    // http:// to loopback: the local runtime's allowance (contract, Webhooks).
    const registered = await call('POST', '/webhooks', { body: { url: receiver.url('/cambio'), events: ['deposit.completed'] } });
    expect(registered.status).toBe(201);
    receiver.secret = registered.body.data.secret;
    const deposit = (await call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'hook-e2e', amount: '12.5' } })).body.data;

    await chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 123_457),
      to: deposit.address,
      amount: parseAmount('12.5', 'USDT'),
    });
    const [delivery] = await receiver.waitFor(1, 20_000);

    expect(delivery, 'no webhook arrived').toBeDefined();
    expect(delivery!.verifyError).toBeNull();
    const event = delivery!.verified as { id: string; type: string; createdAt: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'deposit.completed' });
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    const current = (await call('GET', `/deposits/${deposit.id}`)).body.data;
    expect(event.data).toEqual(current);
    expect(current.status).toBe('completed');
    // The contract's goal for the local runtime: under 2 s from the deposit completing to its webhook.
    expect(delivery!.receivedAt - Date.parse(event.createdAt)).toBeLessThan(2_000);
    // deposit.confirming is not subscribed to: only the one event came.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.deliveries).toHaveLength(1);

    // npm run events:redeliver (the deployed-table form, pointed at this run's DynamoDB Local).
    const redeliver = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'local/events-redeliver.ts', '--company', runtime.sandbox.companyId, '--since', new Date(Date.now() - 60_000).toISOString(), '--type', 'deposit.completed', '--table', runtime.tableName, '--json'],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, DYNAMODB_ENDPOINT: runtime.dynamoEndpoint } },
    );
    expect(redeliver.stderr).toBe('');
    expect(JSON.parse(redeliver.stdout)).toEqual({ events: 1, eventIds: [event.id] });
    const [, again] = await receiver.waitFor(2, 10_000);

    expect(again, 'the redelivery did not arrive').toBeDefined();
    expect(again!.headers['webhook-id']).toBe(event.id);
    expect(again!.body).toBe(delivery!.body);
    expect(again!.verifyError).toBeNull();
  });
});

describe('npm run events:redeliver', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'local/events-redeliver.ts', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('refuses a missing company, a bad time or an unknown type before touching any data', () => {
    expect(run('--since', '2026-01-01T00:00:00Z').stderr).toContain('--company must be a company id');
    expect(run('--company', 'cmp_01J00000000000000000000000', '--since', 'yesterday').stderr).toContain('--since must be an ISO 8601 time');
    const unknownType = run('--company', 'cmp_01J00000000000000000000000', '--since', '2026-01-01T00:00:00Z', '--type', 'deposit.nope');
    expect(unknownType.status).toBe(2);
    expect(unknownType.stderr).toContain('deposit.nope is not an event type');
  });
});
