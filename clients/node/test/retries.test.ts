import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fund, startTestApi, type LocalRuntime } from './support.ts';
import { ApiServerError, AuthenticationError, Cambio, CambioError, ConnectionError, InvalidRequestError, NotFoundError, RateLimitError } from '../src/index.ts';

/**
 * Retries: network errors, 429 and 5xx are retried with capped, jittered backoff; every try of one
 * POST carries the same Idempotency-Key, so the API replays instead of withdrawing twice.
 */
interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  at: number;
}

type Script = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

let server: Server | undefined;
let seen: Seen[] = [];

/** `port`: 0 for a free one, or one given (e.g. where a client was refused a moment before). */
async function flaky(script: Script, port = 0): Promise<string> {
  seen = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
      script(req, res, seen.length);
    });
  });
  await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const withdrawal = {
  id: 'wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5',
  method: 'usdt',
  reference: 'payout-1',
  network: 'tron',
  address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui',
  amount: '5.000000',
  fee: '1.000000',
  status: 'pending',
  txHash: null,
  deliveredAmount: null,
  networkCost: null,
  failureReason: null,
  createdAt: '2026-01-15T12:00:00.000Z',
  updatedAt: '2026-01-15T12:00:00.000Z',
  completedAt: null,
};
const params = { method: 'usdt', network: 'tron', address: withdrawal.address, amount: '5', reference: 'payout-1' } as const;

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': `req-${seen.length}`, ...headers });
  res.end(JSON.stringify(body));
}
const failure = (code: string, message = code) => ({ success: false, error: { code, message, details: null } });
const fast = { initialDelayMs: 5, maxDelayMs: 20 };

describe('retries against a flaky server', () => {
  it('503 then 201: one withdrawal, the same Idempotency-Key on both tries', async () => {
    const url = await flaky((_req, res, attempt) =>
      attempt === 1 ? answer(res, 503, failure('INTERNAL_ERROR')) : answer(res, 201, { success: true, data: withdrawal }),
    );
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

    const created = await cambio.withdrawals.create(params);

    expect(created).toEqual(withdrawal);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
  });

  it('a dropped connection then success: retried with the same key; a new call gets a new key', async () => {
    const url = await flaky((req, res, attempt) => (attempt === 1 ? req.socket.destroy() : answer(res, 201, { success: true, data: withdrawal })));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

    await cambio.withdrawals.create(params);
    const first = seen.map((s) => s.idempotencyKey);
    await cambio.withdrawals.create(params);

    expect(first).toHaveLength(2);
    expect(first[1]).toBe(first[0]);
    expect(seen.at(-1)!.idempotencyKey).not.toBe(first[0]);
  });

  it('honours Retry-After on 429', async () => {
    const url = await flaky((_req, res, attempt) =>
      attempt === 1 ? answer(res, 429, failure('RATE_LIMITED'), { 'Retry-After': '1' }) : answer(res, 200, { success: true, data: withdrawal }),
    );
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

    await cambio.withdrawals.get(withdrawal.id);

    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxRetries with the last error, typed, and backs off within the cap', async () => {
    const url = await flaky((_req, res) => answer(res, 503, failure('PRICE_UNAVAILABLE', 'No current USDT/BRL price')));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, maxRetries: 3, initialDelayMs: 20, maxDelayMs: 40 });

    const error = await cambio.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ code: 'PRICE_UNAVAILABLE', status: 503, requestId: 'req-4' });
    expect(seen).toHaveLength(4);
    const waits = seen.slice(1).map((s, i) => s.at - seen[i]!.at);
    // Try n waits between half and all of min(40, 20 × 2^n) ms (timers may run a little late).
    expect(waits[0]).toBeGreaterThanOrEqual(9);
    // Wall-clock slack for a loaded CI machine; the cap itself is checked without a clock in
    // responses.test.ts (0.5 s doubling, capped at 5 s).
    for (const wait of waits) expect(wait).toBeLessThan(40 + 400);
    expect(new Set(seen.map((s) => s.idempotencyKey)).size).toBe(1);
  });

  it('does not retry a 4xx refusal', async () => {
    const url = await flaky((_req, res) => answer(res, 400, { success: false, error: { code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'amount', message: 'must be a decimal string' }] } }));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

    const error = await cambio.withdrawals.create({ ...params, amount: '5' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, details: [{ path: 'amount', message: 'must be a decimal string' }] });
    expect(seen).toHaveLength(1);
  });

  it('a 429 that persists surfaces as RateLimitError; an unreachable host as ConnectionError', async () => {
    const url = await flaky((_req, res) => answer(res, 429, failure('RATE_LIMITED')));
    const limited = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, maxRetries: 1, ...fast });
    await expect(limited.company.get()).rejects.toBeInstanceOf(RateLimitError);

    const closed = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: 'http://127.0.0.1:1', maxRetries: 1, ...fast });
    await expect(closed.company.get()).rejects.toMatchObject({ name: 'ConnectionError', code: 'CONNECTION_FAILED', status: undefined });
  });

  it('times out a try that never answers', async () => {
    const url = await flaky(() => undefined);
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, maxRetries: 1, timeoutMs: 100, ...fast });
    const error = await cambio.company.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(seen).toHaveLength(2);
  });
});

describe('maxRetries and timeoutMs are refused unless they are whole numbers in range', () => {
  const credentials = { apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: 'http://127.0.0.1:3000/v1' };
  const badRetries = [NaN, -1, 1.5, Infinity, 2 ** 53, '2'];
  // Seconds turned into ms (0.1 * 3 * 1000 is 300.00000000000006): AbortSignal.timeout would throw a RangeError
  // inside the try, reported as "Could not reach Cambio" after every retry.
  const badTimeouts = [0.1 * 3 * 1000, 1100.5, 0, -5, 4_294_967_296, NaN, Infinity, '1000'];

  it('by the constructor, with a TypeError naming the option', () => {
    for (const maxRetries of badRetries) {
      expect(() => new Cambio({ ...credentials, maxRetries: maxRetries as number }), `maxRetries ${String(maxRetries)}`).toThrow(TypeError);
      expect(() => new Cambio({ ...credentials, maxRetries: maxRetries as number })).toThrow(/maxRetries must be a whole number, 0 or more/);
    }
    for (const timeoutMs of badTimeouts) {
      expect(() => new Cambio({ ...credentials, timeoutMs: timeoutMs as number }), `timeoutMs ${String(timeoutMs)}`).toThrow(TypeError);
      expect(() => new Cambio({ ...credentials, timeoutMs: timeoutMs as number })).toThrow(/timeoutMs must be a whole number of milliseconds from 1 to 4294967295/);
    }
    expect(() => new Cambio({ ...credentials, maxRetries: 0, timeoutMs: 1 })).not.toThrow();
    expect(() => new Cambio({ ...credentials, maxRetries: 10, timeoutMs: 4_294_967_295 })).not.toThrow();
  });

  it('per call, before any request is sent', async () => {
    // A refusal, never retried: without the check, NaN would retry a 5xx for ever.
    const url = await flaky((_req, res) => answer(res, 400, failure('VALIDATION_ERROR')));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });
    for (const maxRetries of badRetries) {
      await expect(cambio.company.get({ maxRetries: maxRetries as number }), `maxRetries ${String(maxRetries)}`).rejects.toThrow(TypeError);
    }
    for (const timeoutMs of badTimeouts) {
      await expect(cambio.webhooks.delete('whk_1', { timeoutMs: timeoutMs as number }), `timeoutMs ${String(timeoutMs)}`).rejects.toThrow(TypeError);
    }
    expect(seen).toEqual([]);
  });
});

describe('an answer without the API\'s envelope (a CDN, WAF or proxy answering instead of Cambio)', () => {
  function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': 'text/plain', 'X-Request-Id': `req-${seen.length}`, ...headers });
    res.end(text);
  }

  it('a 429 as text or as {"message"} is a RateLimitError, retried after its Retry-After', async () => {
    for (const throttle of [
      (res: ServerResponse) => plain(res, 429, 'Too Many Requests', { 'Retry-After': '1' }),
      (res: ServerResponse) => answer(res, 429, { message: 'Too Many Requests' }, { 'Retry-After': '1' }),
    ]) {
      const url = await flaky((_req, res, attempt) => (attempt === 1 ? throttle(res) : answer(res, 200, { success: true, data: withdrawal })));
      const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

      expect(await cambio.withdrawals.get(withdrawal.id)).toEqual(withdrawal);
      expect(seen).toHaveLength(2);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
      server!.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }

    const url = await flaky((_req, res) => plain(res, 429, 'Too Many Requests'));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, maxRetries: 2, ...fast });
    const error = await cambio.company.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, requestId: 'req-3' });
    expect(seen).toHaveLength(3);
  });

  it('a 5xx is an ApiServerError and retried; any other status is INVALID_RESPONSE, not retried, as in every client', async () => {
    const cases: [status: number, send: (res: ServerResponse) => void, family: Function, code: string, tries: number][] = [
      [502, (res) => plain(res, 502, '<html>Bad Gateway</html>'), ApiServerError, 'INTERNAL_ERROR', 2],
      [503, (res) => answer(res, 503, { message: 'Service Unavailable' }), ApiServerError, 'INTERNAL_ERROR', 2],
      [404, (res) => plain(res, 404, '<html>Not Found</html>'), CambioError, 'INVALID_RESPONSE', 1],
      [400, (res) => answer(res, 400, { message: 'Bad Request' }), CambioError, 'INVALID_RESPONSE', 1],
      [403, (res) => answer(res, 403, { error: 'Forbidden' }), CambioError, 'INVALID_RESPONSE', 1],
      [200, (res) => answer(res, 200, { success: false, error: { code: 'NOT_FOUND', message: 'x' } }), CambioError, 'INVALID_RESPONSE', 1],
    ];
    for (const [status, send, family, code, tries] of cases) {
      const url = await flaky((_req, res) => send(res));
      const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, maxRetries: 1, ...fast });
      const error = await cambio.company.get().catch((e: unknown) => e);
      expect(error, `HTTP ${status}`).toBeInstanceOf(family);
      if (family === CambioError) {
        for (const specific of [InvalidRequestError, NotFoundError, AuthenticationError, RateLimitError, ApiServerError]) expect(error, `HTTP ${status}`).not.toBeInstanceOf(specific);
      }
      expect(error, `HTTP ${status}`).toMatchObject({ code, status, requestId: `req-${tries}` });
      expect(seen, `HTTP ${status}`).toHaveLength(tries);
      server!.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    server = undefined;
  });
});

describe('a retried DELETE whose first answer was lost', () => {
  const hook = 'whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5';

  it('is a success when the retry is answered 404: the first try deleted the webhook', async () => {
    for (const lost of [(req: IncomingMessage) => req.socket.destroy(), (_req: IncomingMessage, res: ServerResponse) => answer(res, 503, failure('INTERNAL_ERROR'))]) {
      const url = await flaky((req, res, attempt) => (attempt === 1 ? lost(req, res) : answer(res, 404, failure('NOT_FOUND', 'Webhook not found'))));
      const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });

      const deleted = await cambio.webhooks.delete(hook);

      expect(deleted).toEqual({ id: hook, deleted: true });
      expect(deleted.lastResponse).toMatchObject({ status: 404, requestId: 'req-2' });
      expect(seen.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
      server!.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    server = undefined;
  });

  it('is still NotFoundError when the first try is answered 404, and for any other call', async () => {
    // A GET retried into a 404 is unchanged; a DELETE answered 404 on its first try deleted nothing.
    const url = await flaky((req, res, attempt) => (attempt === 1 ? req.socket.destroy() : answer(res, 404, failure('NOT_FOUND'))));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });
    await expect(cambio.webhooks.get(hook)).rejects.toBeInstanceOf(NotFoundError);
    await expect(cambio.webhooks.delete(hook)).rejects.toMatchObject({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404 });
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'DELETE']);
  });

  it('is still NotFoundError when the first try never reached the server: its connection was refused', async () => {
    // Nothing listens on the port for the first try; once it is refused, the API opens there, well within the
    // backoff, and answers the retry 404. A deleted: true here would report a mistyped id as deleted.
    const port = await closedPort();
    let opened: Promise<string> | undefined;
    const opensOnRefusal: typeof fetch = async (input, init) => {
      try {
        return await fetch(input, init);
      } catch (error) {
        await (opened ??= flaky((_req, res) => answer(res, 404, failure('NOT_FOUND', 'Webhook not found')), port));
        throw error;
      }
    };
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: `http://127.0.0.1:${port}`, fetch: opensOnRefusal, ...fast });

    const error = await cambio.webhooks.delete(hook).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: 'req-1' });
    expect(seen.map((s) => s.method)).toEqual(['DELETE']);
  });

  it('is still NotFoundError when the 404 follows only a 429: a 429 did nothing', async () => {
    const limited = (res: ServerResponse) => answer(res, 429, failure('RATE_LIMITED', 'slow down'), { 'Retry-After': '0' });
    const url = await flaky((_req, res, attempt) => (attempt === 1 ? limited(res) : answer(res, 404, failure('NOT_FOUND', 'Webhook not found'))));
    const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: url, ...fast });
    await expect(cambio.webhooks.delete(hook)).rejects.toMatchObject({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404, requestId: 'req-2' });
    expect(seen.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
  });
});

describe('a retry through a connection lost after the API answered', () => {
  let runtime: LocalRuntime;
  let proxy: Server;

  beforeAll(async () => {
    runtime = await startTestApi();
    await fund(runtime, '20');
  });

  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await runtime?.stop();
  });

  it('makes one withdrawal: the API replays the first answer to the retry', async () => {
    // Forwards each request to the local runtime; the first answer is thrown away and the client's
    // connection cut, as when a network drops just after the withdrawal was made.
    const upstream = new URL(runtime.apiUrl);
    const keys: string[] = [];
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        keys.push(String(req.headers['idempotency-key']));
        const forward = httpRequest(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              if (keys.length === 1) return req.socket.destroy();
              res.writeHead(answer.statusCode!, answer.headers);
              res.end(Buffer.concat(body));
            });
          },
        );
        forward.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const cambio = new Cambio({
      apiKey: runtime.sandbox.apiKey,
      apiSecret: runtime.sandbox.apiSecret,
      baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      ...fast,
    });

    const created = await cambio.withdrawals.create({ ...params, reference: 'lost-answer' });

    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const direct = new Cambio({ apiKey: runtime.sandbox.apiKey, apiSecret: runtime.sandbox.apiSecret, baseUrl: runtime.apiUrl });
    expect(await direct.withdrawals.get(created.id)).toMatchObject({ id: created.id, reference: 'lost-answer' });
    const [usdt] = (await direct.company.balance()).balances;
    // 20 deposited, 5 + 1 fee held once: a doubled withdrawal would have held 12.
    expect(usdt).toMatchObject({ currency: 'USDT', available: '14.000000', locked: '6.000000' });
  });
});
