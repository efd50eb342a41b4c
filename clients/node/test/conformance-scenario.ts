import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { AuthenticationError, Cambio, NotFoundError, RefusedError, WebhookVerificationError, type RateLimit, type WebhookEvent } from '../src/index.ts';

/** clients/conformance/scenario.md with cambio-usdt, step by step. */
const PAYOUT_ADDRESS = 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui';

export async function runScenario(env: Record<string, string>): Promise<void> {
  // 0. construct, and a receiver that keeps the raw bytes
  const cambio = new Cambio({ apiKey: env.CAMBIO_API_KEY!, apiSecret: env.CAMBIO_API_SECRET!, baseUrl: env.CAMBIO_API_URL! });
  const deliveries: { headers: Record<string, string | string[] | undefined>; body: Buffer }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    // 1. company
    const company = await cambio.company.get();
    expect(company.environment).toBe('sandbox');
    expect(company.id).toMatch(/^cmp_/);
    // A new company is at the standard tier; its figures are the stage's, whatever they are.
    const limit: RateLimit = company.rateLimit;
    expect(limit.tier).toBe('standard');
    expect(Number.isInteger(limit.requestsPerSecond) && limit.requestsPerSecond > 0).toBe(true);
    expect(Number.isInteger(limit.burst) && limit.burst >= limit.requestsPerSecond).toBe(true);
    const { balances } = await cambio.company.balance();
    expect(balances.map((b) => b.currency).sort()).toEqual(['BRL', 'USDT']);

    // 2. webhook created
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const webhook = await cambio.webhooks.create({ url, events: ['*'] });
    expect(webhook.id).toMatch(/^whk_/);
    expect(webhook.secret).toMatch(/^whsec_/);

    // 3. deposit paid and completed
    const deposit = await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: `conformance-${randomUUID()}`, amount: '25' });
    expect(deposit).toMatchObject({ status: 'awaiting_payment', amount: '25.000000' });
    const paid = await fetch(env.CAMBIO_SANDBOX_PAY_URL!, { method: 'POST', body: JSON.stringify({ address: deposit.address, amount: '25' }) });
    expect(paid.status).toBe(200);
    const completed = await until(() => cambio.deposits.get(deposit.id), (d) => d.status === 'completed', 60_000);
    expect(completed).toMatchObject({ creditedAmount: '25.000000', receivedAmount: '25.000000' });

    // 4. delivery verified
    const delivery = await until(
      async () => deliveries.find((d) => {
        try {
          const event = cambio.webhooks.verify(d.body, d.headers, webhook.secret) as WebhookEvent;
          return event.type === 'deposit.completed' && event.data.id === deposit.id;
        } catch {
          return false;
        }
      }),
      (found) => found !== undefined,
      30_000,
    );
    const tampered = Buffer.from(delivery!.body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(() => cambio.webhooks.verify(tampered, delivery!.headers, webhook.secret)).toThrow(WebhookVerificationError);

    // 5. conversion
    const quote = await cambio.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' });
    expect(quote.id).toMatch(/^qte_/);
    const conversion = await cambio.conversions.create({ quoteId: quote.id });
    expect(conversion).toMatchObject({ status: 'completed', settlementAmount: quote.settlementAmount });

    // 6. idempotent replay
    const second = await cambio.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '1' });
    const idempotencyKey = `conformance-${randomUUID()}`;
    const first = await cambio.conversions.create({ quoteId: second.id }, { idempotencyKey });
    const replayed = await cambio.conversions.create({ quoteId: second.id }, { idempotencyKey });
    expect(replayed.id).toBe(first.id);
    const usdt = (await cambio.company.balance()).balances.find((b) => b.currency === 'USDT');
    expect(usdt?.available).toBe('14.000000');

    // 7. pagination
    const page = await cambio.conversions.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.nextCursor).toBeTruthy();
    const walked: string[] = [];
    for await (const each of cambio.conversions.list({ limit: 1 })) walked.push(each.id);
    expect(walked).toEqual([first.id, conversion.id]);

    // 8. refused
    const refused = await cambio.withdrawals
      .create({ method: 'usdt', network: 'tron', address: PAYOUT_ADDRESS, amount: '1000', reference: `conformance-${randomUUID()}` })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 422 });
    expect((refused as RefusedError).requestId).toBeTruthy();

    // 9. authentication
    const wrong = new Cambio({ apiKey: env.CAMBIO_API_KEY!, apiSecret: 'not-the-secret', baseUrl: env.CAMBIO_API_URL! });
    const refusedAuth = await wrong.company.get().catch((error: unknown) => error);
    expect(refusedAuth).toBeInstanceOf(AuthenticationError);
    expect(refusedAuth).toMatchObject({ code: 'AUTH_FAILED', status: 401 });

    // 10. not found
    const missing = await cambio.deposits.get('dep_00000000000000000000000000').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });

    // 11. webhook managed
    const updated = await cambio.webhooks.update(webhook.id, { url, events: ['deposit.completed'] });
    expect(updated.events).toEqual(['deposit.completed']);
    expect((await cambio.webhooks.get(webhook.id)).events).toEqual(['deposit.completed']);
    expect((await cambio.webhooks.list()).data.map((w) => w.id)).toContain(webhook.id);
    expect(await cambio.webhooks.delete(webhook.id)).toMatchObject({ id: webhook.id, deleted: true });
    await expect(cambio.webhooks.get(webhook.id)).rejects.toBeInstanceOf(NotFoundError);
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
