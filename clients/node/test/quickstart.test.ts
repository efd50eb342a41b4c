import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, Cambio, CambioError, InvalidRequestError, NotFoundError, RefusedError, type WebhookEvent } from '../src/index.ts';
import { fund, payOnSandboxChain, startTestApi, waitFor, type LocalRuntime } from './support.ts';

/**
 * The README's quickstart, with the client, against the runtime `npm start` runs (on a free port,
 * fast sandbox blocks): a webhook, a deposit paid on the sandbox chain, its signed event received
 * and verified, a conversion, a withdrawal.
 */
const BLOCK_MS = 50;
let runtime: LocalRuntime;
let receiver: Server;
const deliveries: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  runtime = await startTestApi({ environment: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS) }, pollIntervalMs: 100, webhookIntervalMs: 100 });
  // Your endpoint: it must hand verify() the raw body, so it reads the bytes itself.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await runtime?.stop();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('the quickstart with cambio-usdt', () => {
  it('deposit → paid on the sandbox chain → signed webhook → convert → withdraw', async () => {
    const cambio = new Cambio({ apiKey: runtime.sandbox.apiKey, apiSecret: runtime.sandbox.apiSecret, baseUrl: new URL(runtime.apiUrl).origin });

    const webhook = await cambio.webhooks.create({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cambio`, events: ['*'] });
    expect(webhook.secret).toMatch(/^whsec_/);

    const deposit = await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', amount: '25' });
    expect(deposit).toMatchObject({ status: 'awaiting_payment', amount: '25.000000' });
    await payOnSandboxChain(runtime, deposit.address, '25', BLOCK_MS);

    const completed = await waitFor(() => cambio.deposits.get(deposit.id), (d) => d.status === 'completed');
    expect(completed).toMatchObject({ status: 'completed', creditedAmount: '25.000000', amountStatus: 'exact' });

    const events = await waitFor(
      async () => deliveries.map((d) => cambio.webhooks.verify(d.body, d.headers, webhook.secret)),
      (verified) => verified.some((event) => event.type === 'deposit.completed'),
    );
    const event = events.find((e): e is Extract<WebhookEvent, { type: 'deposit.completed' }> => e.type === 'deposit.completed');
    expect(event?.data).toMatchObject({ id: deposit.id, status: 'completed' });

    const quote = await cambio.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' });
    const conversion = await cambio.conversions.create({ quoteId: quote.id, reference: 'convert-1' });
    expect(conversion).toMatchObject({ status: 'completed', quoteId: quote.id, settlementAmount: quote.settlementAmount });

    const withdrawal = await cambio.withdrawals.create({
      method: 'usdt',
      network: 'tron',
      address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui',
      amount: '5',
      reference: 'payout-1',
    });
    expect(withdrawal).toMatchObject({ amount: '5.000000', fee: '1.000000' });
    expect((await cambio.withdrawals.get(withdrawal.id)).id).toBe(withdrawal.id);

    const { balances } = await cambio.company.balance();
    const usdt = balances.find((b) => b.currency === 'USDT')!;
    const brl = balances.find((b) => b.currency === 'BRL')!;
    // 25 in, 10 converted, 5 + 1 fee withdrawn (held or, once sent, spent).
    expect(Number(usdt.available)).toBe(9);
    expect(brl.available).toBe(conversion.settlementAmount);
    expect((await cambio.company.get()).environment).toBe('sandbox');
  }, 90_000);
});

describe('the client against the local runtime', () => {
  const client = () => new Cambio({ apiKey: runtime.sandbox.apiKey, apiSecret: runtime.sandbox.apiSecret, baseUrl: runtime.apiUrl });

  it('pages: await gives one page, for await walks them all', async () => {
    const cambio = client();
    await fund(runtime, '50');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const quote = await cambio.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '1' });
      made.push((await cambio.conversions.create({ quoteId: quote.id })).id);
    }
    const first = await cambio.conversions.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));

    const all: string[] = [];
    for await (const conversion of cambio.conversions.list({ limit: 2 })) all.push(conversion.id);
    // Newest first; the quickstart's conversion (if it ran first) comes last.
    expect(all.slice(0, 5)).toEqual([...made].reverse());
    expect(new Set(all).size).toBe(all.length);
  });

  it('webhooks: create, list, get, update, delete', async () => {
    const cambio = client();
    const created = await cambio.webhooks.create({ url: 'http://127.0.0.1:9/a', events: ['deposit.completed'], description: 'a' });
    expect((await cambio.webhooks.get(created.id)).description).toBe('a');
    const updated = await cambio.webhooks.update(created.id, { url: 'http://127.0.0.1:9/b', events: ['*'], enabled: false });
    expect(updated).toMatchObject({ url: 'http://127.0.0.1:9/b', events: ['*'], enabled: false, description: null });
    const listed: string[] = [];
    for await (const webhook of cambio.webhooks.list()) listed.push(webhook.id);
    expect(listed).toContain(created.id);
    expect(await cambio.webhooks.delete(created.id)).toEqual({ id: created.id, deleted: true });
    await expect(cambio.webhooks.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('errors carry the contract code, the HTTP status and the request id, by family', async () => {
    const cambio = client();
    const missing = await cambio.deposits.get('dep_00000000000000000000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(CambioError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: expect.stringMatching(/\S/) });

    const invalid = await cambio.withdrawals
      .create({ method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '1.1234567', reference: 'bad' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, details: [{ path: 'amount', message: expect.any(String) }] });

    const refused = await cambio.withdrawals
      .create({ method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '1000000', reference: 'too-much' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 422 });

    const stranger = new Cambio({ apiKey: 'ck_test_nobody', apiSecret: 'cs_test_nothing', baseUrl: runtime.apiUrl });
    await expect(stranger.company.get()).rejects.toMatchObject({ name: 'AuthenticationError', code: 'AUTH_FAILED', status: 401 });
    await expect(stranger.company.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('an explicit idempotencyKey replays the first answer across calls', async () => {
    const cambio = client();
    const params = { method: 'usdt', network: 'tron', reference: 'order-idem' } as const;
    const first = await cambio.deposits.create(params, { idempotencyKey: 'order-idem-key' });
    const again = await cambio.deposits.create(params, { idempotencyKey: 'order-idem-key' });
    expect(again).toEqual(first);
  });
});

describe('the package as an integrator installs it', () => {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const run = promisify(execFile);

  it('has no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });

  it('builds with its own tsconfig, imports only node: built-ins, and runs under plain Node', async () => {
    // dist/ beside a copy of package.json, as in the package: the version is read from it.
    const packageCopy = mkdtempSync(join(tmpdir(), 'cambio-client-'));
    const outDir = join(packageCopy, 'dist');
    copyFileSync(join(packageDir, 'package.json'), join(packageCopy, 'package.json'));
    try {
      const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
      await run(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json'), '--outDir', outDir]);
      const files = readdirSync(outDir, { recursive: true }).map(String).filter((file) => file.endsWith('.js'));
      const specifiers = files.flatMap((file) => [...readFileSync(join(outDir, file), 'utf8').matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]!));
      expect(specifiers.filter((s) => !s.startsWith('node:') && !s.startsWith('./') && !s.startsWith('../'))).toEqual([]);

      const script = `
        const { Cambio, NotFoundError } = await import(${JSON.stringify(join(outDir, 'index.js'))});
        const cambio = new Cambio({ apiKey: process.env.KEY, apiSecret: process.env.SECRET, baseUrl: process.env.URL });
        const company = await cambio.company.get();
        const missing = await cambio.deposits.get('dep_00000000000000000000000000').catch((e) => e);
        console.log(JSON.stringify({ environment: company.environment, notFound: missing instanceof NotFoundError }));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, KEY: runtime.sandbox.apiKey, SECRET: runtime.sandbox.apiSecret, URL: runtime.apiUrl },
      });
      expect(JSON.parse(stdout)).toEqual({ environment: 'sandbox', notFound: true });
    } finally {
      rmSync(packageCopy, { recursive: true, force: true });
    }
  }, 60_000);
});
