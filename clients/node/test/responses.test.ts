import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cambio, CambioError, ConnectionError, type CreateWithdrawalParams, type Withdrawal, type WithdrawalNetworkCost } from '../src/index.ts';

/**
 * What every call returns besides the record: its HTTP status and request id on `lastResponse`,
 * kept out of the record's serialisation. And the timing knobs: a per-call timeout, and the
 * backoff every official client shares (../shared/clients.md: 0.5 s × 2^n, capped at 5 s).
 */
const deposit = {
  id: 'dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5',
  method: 'usdt',
  reference: 'order-1',
  status: 'pending',
};

function answering(status: number, body: unknown, requestId = 'req-1'): typeof fetch {
  return async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId } });
}

const credentials = { apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: 'https://api.example.com/v1' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('returned objects', () => {
  it('carry the status and request id on lastResponse, and serialise as the API record', async () => {
    const cambio = new Cambio({ ...credentials, fetch: answering(201, { success: true, data: deposit }, 'req-created') });

    const created = await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', amount: '25' });

    expect(created.lastResponse).toMatchObject({ status: 201, requestId: 'req-created' });
    expect(created.lastResponse.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(JSON.stringify(created))).toEqual(deposit);
    expect({ ...created }).toEqual(deposit);
    expect(Object.keys(created)).not.toContain('lastResponse');
  });

  it('a page and each of its items carry the answer they came in', async () => {
    const conversions = [
      { id: 'cnv_01JBZ6W1V7Q8R9S0T1A2V3W4X5', status: 'completed' },
      { id: 'cnv_01JBZ6W1V7Q8R9S0T1A2V3W4X6', status: 'completed' },
    ];
    const body = { success: true, data: conversions, pagination: { nextCursor: null } };
    const cambio = new Cambio({ ...credentials, fetch: answering(200, body, 'req-page') });

    const page = await cambio.conversions.list({ limit: 2 });
    const items = [];
    for await (const item of cambio.conversions.list({ limit: 2 })) items.push(item);

    expect(page.lastResponse).toMatchObject({ status: 200, requestId: 'req-page' });
    expect(page.requestId).toBe('req-page');
    expect(page.data.map((item) => item.lastResponse.requestId)).toEqual(['req-page', 'req-page']);
    expect(items.map((item) => item.lastResponse.status)).toEqual([200, 200]);
    expect(JSON.parse(JSON.stringify(page))).toEqual({ data: body.data, nextCursor: null, requestId: 'req-page' });
  });
});

describe('auto-pagination', () => {
  /** Answers a list call with one item per page and the next cursor `next[cursor]`, recording each cursor asked for. */
  function pages(next: Record<string, string | null>, asked: (string | null)[]): typeof fetch {
    return async (input) => {
      const cursor = new URL(String(input)).searchParams.get('cursor');
      asked.push(cursor);
      if (asked.length > 10) throw new Error('still paging after 10 pages: a loop');
      const body = { success: true, data: [{ id: `cnv_${cursor ?? 'first'}`, status: 'completed' }], pagination: { nextCursor: next[cursor ?? ''] } };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Request-Id': `req-${asked.length}` } });
    };
  }

  async function walk(cambio: Cambio, cursor?: string): Promise<{ ids: string[]; error: unknown }> {
    const ids: string[] = [];
    try {
      for await (const item of cambio.conversions.list(cursor === undefined ? { limit: 1 } : { limit: 1, cursor })) ids.push(item.id);
    } catch (error) {
      return { ids, error };
    }
    return { ids, error: undefined };
  }

  it('refuses a list answered without an array of records with INVALID_RESPONSE, not a TypeError', async () => {
    const cambio = new Cambio({ ...credentials, maxRetries: 0, fetch: answering(200, { success: true, data: { id: 'cnv_1' }, pagination: { nextCursor: null } }, 'req-7') });

    await expect(cambio.conversions.list()).rejects.toMatchObject({ name: 'CambioError', code: 'INVALID_RESPONSE', requestId: 'req-7' });
  });

  it('stops with INVALID_RESPONSE when the API answers a cursor it already followed (A → B → A), rather than looping', async () => {
    const asked: (string | null)[] = [];
    const cambio = new Cambio({ ...credentials, maxRetries: 0, fetch: pages({ '': 'A', A: 'B', B: 'A' }, asked) });

    const { ids, error } = await walk(cambio);

    expect(error).toBeInstanceOf(CambioError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', requestId: 'req-3' });
    expect((error as Error).message).toMatch(/nextCursor "A" again/);
    expect(asked).toEqual([null, 'A', 'B']);
    expect(ids).toEqual(['cnv_first', 'cnv_A', 'cnv_B']);
  });

  it('stops on the very next page repeating its cursor, and on a page naming the cursor the walk started from', async () => {
    const repeated: (string | null)[] = [];
    expect((await walk(new Cambio({ ...credentials, maxRetries: 0, fetch: pages({ '': 'A', A: 'A' }, repeated) }))).error).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(repeated).toEqual([null, 'A']);

    const fromStart: (string | null)[] = [];
    expect((await walk(new Cambio({ ...credentials, maxRetries: 0, fetch: pages({ S: 'T', T: 'S' }, fromStart) }), 'S')).error).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(fromStart).toEqual(['S', 'T']);
  });

  it('walks distinct cursors to the end', async () => {
    const asked: (string | null)[] = [];
    const { ids, error } = await walk(new Cambio({ ...credentials, maxRetries: 0, fetch: pages({ '': 'A', A: 'B', B: null }, asked) }));
    expect(error).toBeUndefined();
    expect(ids).toEqual(['cnv_first', 'cnv_A', 'cnv_B']);
  });
});

describe('money', () => {
  const wallet = 'TVWFLU6jVhtYemb8PkJW62jffPRDaN3zNQ';

  it('is refused as a JS number (a caller without TypeScript) with a TypeError naming the field, before any request', async () => {
    let requests = 0;
    const fetch: typeof globalThis.fetch = async () => {
      requests++;
      return new Response(JSON.stringify({ success: true, data: deposit }), { status: 201, headers: { 'Content-Type': 'application/json' } });
    };
    const cambio = new Cambio({ ...credentials, fetch });
    const loose = cambio as unknown as {
      deposits: { create(params: unknown): Promise<unknown> };
      withdrawals: { create(params: unknown): Promise<unknown> };
      conversions: { quote(params: unknown): Promise<unknown> };
    };

    const refusals: [Promise<unknown>, RegExp][] = [
      [loose.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', amount: 25.5 }), /deposits\.create: amount must be a decimal string/],
      [loose.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', split: { address: wallet, amount: 1.5 } }), /deposits\.create: split\.amount must be a decimal string/],
      [loose.withdrawals.create({ method: 'usdt', network: 'tron', address: wallet, amount: 5, reference: 'payout-1' }), /withdrawals\.create: amount must be a decimal string/],
      [loose.conversions.quote({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: 10.25 }), /conversions\.quote: sourceAmount must be a decimal string/],
      [loose.withdrawals.create({ method: 'usdt', network: 'tron', address: wallet, amount: 5n, reference: 'payout-1' }), /withdrawals\.create: amount must be a decimal string .*got bigint/],
    ];
    for (const [call, message] of refusals) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
    }
    expect(requests).toBe(0);

    // Strings, an omitted amount and a percent split go through.
    await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1' });
    await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', amount: '25.5', split: { address: wallet, percent: 10 } });
    await cambio.deposits.create({ method: 'usdt', network: 'tron', reference: 'order-1', split: { address: wallet, amount: '1.5' } });
    expect(requests).toBe(3);
  });
});

describe('networks', () => {
  // A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58).
  const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  const signature = '4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ';

  it('a withdrawal on Solana is sent naming it, and its record reads back typed', async () => {
    const networkCost: WithdrawalNetworkCost = { asset: 'SOL', amount: '0.002044280', tokenAccountCreated: true };
    const record = { id: 'wdr_01JBZ6W1V7Q8R9S0T1A2V3W4X5', method: 'usdt', reference: 'payout-1', network: 'solana', address: wallet, status: 'completed', txHash: signature, networkCost };
    const sent: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, data: record }), { status: 201, headers: { 'Content-Type': 'application/json' } });
    };
    const cambio = new Cambio({ ...credentials, fetch });

    const withdrawal = await cambio.withdrawals.create({ method: 'usdt', network: 'solana', address: wallet, amount: '5', reference: 'payout-1' });

    expect(sent).toEqual([{ method: 'usdt', network: 'solana', address: wallet, amount: '5', reference: 'payout-1' }]);
    // The types name it too (tsc checks this line): a record's network and a request's.
    const solana: Withdrawal['network'] & CreateWithdrawalParams['network'] = 'solana';
    expect([withdrawal.network, withdrawal.address, withdrawal.txHash]).toEqual([solana, wallet, signature]);
    // What the payout cost Cambio in SOL: the API's decimal string, never a number.
    expect(withdrawal.networkCost).toEqual(networkCost);
  });
});

describe('timing', () => {
  it('a call’s own timeoutMs overrides the client’s', async () => {
    const neverAnswers: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    const cambio = new Cambio({ ...credentials, timeoutMs: 60_000, maxRetries: 0, fetch: neverAnswers });

    const started = Date.now();
    const error = await cambio.company.get({ timeoutMs: 50 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('No answer within 50 ms') });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('backs off 0.5 s doubling, capped at 5 s, by default', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    // Records each wait the client asks for and lets it pass at once: the arithmetic, not a clock.
    const delays: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
      delays.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout);
    const unreachable: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const cambio = new Cambio({ ...credentials, maxRetries: 6, fetch: unreachable });

    const error = await cambio.company.get().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConnectionError);
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
  });
});
