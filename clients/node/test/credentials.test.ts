import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Cambio, CambioError, type CambioOptions } from '../src/index.ts';

/**
 * Where the key and secret may end up: only in the headers of requests to the base URL the
 * integrator gave, never in a message, a log line or another host. And the one secret the API
 * hands back, a created webhook's signing secret, stays out of console.log while the record still
 * reads and serialises as the API's.
 */
const servers: Server[] = [];

async function serve(handler: (headers: IncomingHttpHeaders, method: string, respond: (status: number, headers: Record<string, string>, body: string) => void) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req.headers, req.method!, (status, headers, body) => res.writeHead(status, headers).end(body)));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const SECRET = 'cs_test_s3cr3t';

describe('redirects', () => {
  it('are never followed: the secret does not reach the host a 302 names, and the call fails with INVALID_RESPONSE', async () => {
    const elsewhere: { method: string; headers: IncomingHttpHeaders }[] = [];
    const other = await serve((headers, method, respond) => {
      elsewhere.push({ method, headers });
      respond(200, { 'Content-Type': 'application/json' }, JSON.stringify({ success: true, data: { id: 'wh_1', secret: 'whsec_x' } }));
    });
    let tries = 0;
    const api = await serve((_headers, _method, respond) => {
      tries++;
      respond(302, { Location: `${other}/v1/webhooks`, 'X-Request-Id': 'req-redirect' }, '');
    });
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: SECRET, baseUrl: api, initialDelayMs: 1, maxDelayMs: 2 });

    for (const call of [() => cambio.company.get(), () => cambio.webhooks.create({ url: 'https://example.com/hooks', events: ['*'] })]) {
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(CambioError);
      expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 302, requestId: 'req-redirect' });
      expect((error as Error).message).toMatch(/redirect/i);
      expect((error as Error).message).not.toContain(SECRET);
    }
    expect(elsewhere).toEqual([]);
    expect(tries).toBe(2); // a redirect is not retried
  });
});

describe('the key and secret', () => {
  function refusal(options: Partial<CambioOptions>): TypeError {
    try {
      new Cambio({ apiKey: 'ck_test_k', apiSecret: SECRET, baseUrl: 'http://127.0.0.1:9', ...options });
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      return error as TypeError;
    }
    throw new Error('expected a TypeError');
  }

  it('are refused at construction when they carry a line break or another control character, without being echoed', () => {
    for (const bad of [`${SECRET}\n`, `${SECRET}\r\n`, `${SECRET}\nX-Injected: 1`, `\t${SECRET}`, `${SECRET}\u0000`, `${SECRET}\u007f`, ` ${SECRET}`, `${SECRET}é`]) {
      const secretError = refusal({ apiSecret: bad });
      expect(secretError.message).toMatch(/apiSecret must be printable ASCII/);
      expect(secretError.message).not.toContain(SECRET);
      const keyError = refusal({ apiKey: `ck_test_${bad}` });
      expect(keyError.message).toMatch(/apiKey must be printable ASCII/);
      expect(keyError.message).not.toContain(SECRET);
    }
  });

  it('are refused when they are not strings', () => {
    expect(refusal({ apiSecret: 42 as unknown as string }).message).toMatch(/apiSecret must be a string/);
    expect(refusal({ apiKey: {} as unknown as string }).message).toMatch(/apiKey must be a string/);
  });
});

describe('your own Idempotency-Key', () => {
  it('is refused before any request when it is not 1–255 printable ASCII characters (a line break from an order id)', async () => {
    let requests = 0;
    const baseUrl = await serve((_, __, respond) => {
      requests++;
      respond(500, {}, '');
    });
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: SECRET, baseUrl });
    for (const bad of ['order-1\r\nX-Injected: yes', '', 'x'.repeat(256), 'pedido-ç']) {
      await expect(cambio.withdrawals.create({ method: 'usdt', network: 'tron', address: 'TVWFLU6jVhtYemb8PkJW62jffPRDaN3zNQ', amount: '1', reference: 'r-1' }, { idempotencyKey: bad })).rejects.toThrow(
        /idempotencyKey must be 1–255 printable ASCII characters/,
      );
    }
    expect(requests).toBe(0);
  });
});

describe("a created webhook's signing secret", () => {
  const created = {
    id: 'wh_01JBZ6W1V7Q8R9S0T1A2V3W4X5',
    url: 'https://example.com/hooks',
    events: ['*'],
    enabled: true,
    createdAt: '2026-01-15T12:00:00.000Z',
    updatedAt: '2026-01-15T12:00:00.000Z',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  };
  const answering: typeof fetch = async () =>
    new Response(JSON.stringify({ success: true, data: created }), { status: 201, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' } });

  it('is hidden from console.log and util.inspect, yet readable and in the JSON', async () => {
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: SECRET, baseUrl: 'https://api.example.com', fetch: answering });

    const hook = await cambio.webhooks.create({ url: created.url, events: ['*'] });

    expect(inspect(hook)).not.toContain(created.secret);
    expect(inspect(hook)).toContain("secret: '[hidden]'");
    expect(inspect(hook)).toContain(created.id);
    expect(inspect({ hook }, { depth: 5 })).not.toContain(created.secret);
    expect(inspect([hook], { depth: 5 })).not.toContain(created.secret);
    expect(hook.secret).toBe(created.secret);
    expect(JSON.parse(JSON.stringify(hook))).toEqual(created);
    expect(Object.keys(hook)).toEqual(Object.keys(created));
    expect(hook.lastResponse.requestId).toBe('req-1');
  });
});
