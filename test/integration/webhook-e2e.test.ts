import { spawnSync } from 'node:child_process';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { operatorAuditEntryItem } from '#adapters/dynamo/items/operator-audit-entry';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { itemsUnder } from '#adapters/dynamo/queries';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { domainEvent } from '#functions/shared/events';
import { newId } from '#functions/shared/ids';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { operator } from '../../ops/screening-target.ts';
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
    const since = new Date(Date.now() - 60_000).toISOString();
    const redeliver = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'ops/events-redeliver.ts', '--company', runtime.sandbox.companyId, '--since', since, '--type', 'deposit.completed', '--reason', 'Endpoint down 10:00-10:20', '--table', runtime.tableName, '--json'],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, DYNAMODB_ENDPOINT: runtime.dynamoEndpoint } },
    );
    expect(redeliver.stderr).toBe('');
    expect(JSON.parse(redeliver.stdout)).toEqual({ events: 1, eventIds: [event.id] });
    // Who sent the company's events again, which and why: in the operator audit log.
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const audits = (await itemsUnder(db, runtime.tableName, operatorAuditEntryItem.all())).map(operatorAuditEntryItem.fromItem).filter((entry) => entry.action === 'events.redelivered');
    db.destroy();
    expect(audits).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        action: 'events.redelivered',
        actor: operator(),
        target: runtime.sandbox.companyId,
        details: { since, types: 'deposit.completed', count: '1', reason: 'Endpoint down 10:00-10:20' },
        createdAt: expect.any(String),
      },
    ]);
    const [, again] = await receiver.waitFor(2, 10_000);

    expect(again, 'the redelivery did not arrive').toBeDefined();
    expect(again!.headers['webhook-id']).toBe(event.id);
    expect(again!.body).toBe(delivery!.body);
    expect(again!.verifyError).toBeNull();
  });
});

describe('the signing secret at rest', () => {
  /** Every item of the table as the daily export carries it (docs/data-model.md). */
  async function wholeTable(): Promise<string> {
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: runtime.tableName, ConsistentRead: true, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    db.destroy();
    return JSON.stringify(items);
  }

  it('is in no item of the table (webhook or idempotency record), yet a replay returns it and deliveries verify with it', async () => {
    const headers = { 'Idempotency-Key': `sealed-${Date.now()}` };
    const body = { url: receiver.url('/sealed'), events: ['withdrawal.completed'] };

    const registered = await call('POST', '/webhooks', { body, headers });

    expect(registered.status).toBe(201);
    const { id, secret } = registered.body.data as { id: string; secret: string };
    const keyBytes = secret.slice('whsec_'.length);
    const table = await wholeTable();
    expect(table).not.toContain(secret);
    expect(table).not.toContain(keyBytes);
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: webhookItem.key(runtime.sandbox.companyId, id) }));
    expect(Item!.secret).toBeUndefined();
    expect(Item!.sealedSecret).toMatch(/^local:/);

    // The Idempotency-Key replay: the first answer, byte for byte, secret included.
    const replayed = await call('POST', '/webhooks', { body, headers });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(registered.text);

    // A delivery, signed by the sender with the secret it opened.
    receiver.deliveries.length = 0;
    receiver.secret = secret;
    const event = domainEvent(runtime.sandbox.companyId, 'withdrawal.completed', { id: newId('withdrawal'), status: 'completed' }, new Date());
    await new MoneyTransaction(runtime.tableName).event(event).commit(db);
    db.destroy();
    const deliveries = await receiver.waitFor(1, 10_000);

    expect(deliveries.map((delivery) => [delivery.headers['webhook-id'], delivery.verifyError])).toEqual([[event.id, null]]);
  });
});

describe('npm run events:redeliver', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'ops/events-redeliver.ts', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('refuses a missing company, a bad time or an unknown type before touching any data', () => {
    expect(run('--since', '2026-01-01T00:00:00Z').stderr).toContain('--company must be a company id');
    expect(run('--company', 'cmp_01J00000000000000000000000', '--since', 'yesterday').stderr).toContain('--since must be an ISO 8601 time');
    expect(run('--company', 'cmp_01J00000000000000000000000', '--since', '1969-12-31T00:00:00Z').stderr).toContain('--since must be 1970-01-01 or later');
    const unknownType = run('--company', 'cmp_01J00000000000000000000000', '--since', '2026-01-01T00:00:00Z', '--type', 'deposit.nope');
    expect(unknownType.status).toBe(2);
    expect(unknownType.stderr).toContain('deposit.nope is not an event type');
    const blankReason = run('--company', 'cmp_01J00000000000000000000000', '--since', '2026-01-01T00:00:00Z', '--reason', '  ');
    expect(blankReason.status).toBe(2);
    expect(blankReason.stderr).toContain('--reason must say why');
  });
});

describe('npm run webhooks:seal-secrets', () => {
  it('refuses a deployed table named without its stage (whose own key it seals with)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'ops/webhooks-seal-secrets.ts', '--table', 'Cambio-sandbox-Table'], {
      encoding: 'utf8',
      timeout: 30_000,
    });

    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--table goes with --stage sandbox|production');
  });
});
