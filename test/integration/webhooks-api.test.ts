import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { newCompany as createTestCompany, useTestApi } from '../support/local-api.ts';

const api = useTestApi();

const newCompany = (name: string) => createTestCompany(api.runtime, name);

// Loopback over http:// is the local runtime's allowance (contract, Webhooks); nothing listens on port 9.
const body = (overrides: Record<string, unknown> = {}) => ({ url: 'http://127.0.0.1:9/hooks', events: ['deposit.completed'], ...overrides });

describe('POST /v1/webhooks', () => {
  it('answers 201 with the record and a whsec_ secret of 24 random bytes, shown only there', async () => {
    const { call } = await newCompany('Hooks');

    const created = await call('POST', '/webhooks', { body: body({ description: 'orders', events: ['deposit.completed', 'withdrawal.failed'] }) });

    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-Z]{26}$/),
      url: 'http://127.0.0.1:9/hooks',
      events: ['deposit.completed', 'withdrawal.failed'],
      description: 'orders',
      enabled: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: data.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(Buffer.from(data.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    const read = await call('GET', `/webhooks/${data.id}`);
    expect(read.status).toBe(200);
    const { secret: _secret, ...record } = data;
    expect(read.body.data).toEqual(record);
    const listed = await call('GET', '/webhooks');
    expect(listed.body.data).toEqual([record]);
    expect(listed.text).not.toContain(data.secret);
  });

  it('accepts ["*"], http:// to localhost and [::1] locally, and defaults description to null', async () => {
    const { call } = await newCompany('Star');

    for (const url of ['http://localhost:9/x', 'http://[::1]:9/x', 'https://127.0.0.1:9/x']) {
      const created = await call('POST', '/webhooks', { body: { url, events: ['*'] } });
      expect(created.status, url).toBe(201);
      expect(created.body.data).toMatchObject({ url, events: ['*'], description: null, enabled: true });
    }
  });

  it.each([
    [{ events: [] }, 'events'],
    [{ events: ['deposit.completed', 'deposit.unknown'] }, 'events'],
    [{ events: ['*', 'deposit.completed'] }, 'events'],
    [{ events: 'deposit.completed' }, 'events'],
    [{ description: 'x'.repeat(501) }, 'description'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ url: 'ftp://127.0.0.1/x' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'http://user:pass@127.0.0.1/x' }, 'url'],
    [{ extra: 1 }, 'extra'],
  ])('refuses %j with 400 VALIDATION_FAILED on %s', async (overrides, path) => {
    const { call } = await newCompany('Invalid');

    const refused = await call('POST', '/webhooks', { body: body(overrides) });

    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it.each(['https://10.0.0.1/x', 'https://169.254.169.254/latest/meta-data', 'http://192.168.1.1/x', 'https://[fd00:ec2::254]/', 'http://0.0.0.0:9/x'])(
    'refuses %s on the local runtime too: private, link-local and metadata ranges are refused everywhere',
    async (url) => {
      const { call } = await newCompany('Private');

      const refused = await call('POST', '/webhooks', { body: body({ url }) });

      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([{ path: 'url', message: expect.stringContaining('only public addresses are allowed') }]);
    },
  );

  it('refuses the 11th webhook with 422 LIMIT_REACHED, even when 11 are posted at once, and a deletion frees a slot', async () => {
    const { call } = await newCompany('Limit');

    const answers = await Promise.all(Array.from({ length: 11 }, (_, i) => call('POST', '/webhooks', { body: body({ description: `n${i}` }) })));

    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(10).fill(201), 422]);
    const refused = answers.find((answer) => answer.status === 422)!;
    expect(refused.body.error).toMatchObject({ code: 'LIMIT_REACHED', details: { limit: 10 } });
    expect((await call('GET', '/webhooks?limit=100')).body.data).toHaveLength(10);
    expect((await call('POST', '/webhooks', { body: body() })).status).toBe(422);

    const victim = answers.find((answer) => answer.status === 201)!.body.data.id;
    expect((await call('DELETE', `/webhooks/${victim}`)).status).toBe(200);
    expect((await call('POST', '/webhooks', { body: body() })).status).toBe(201);
    expect((await call('POST', '/webhooks', { body: body() })).status).toBe(422);
  });

  it('replays the same answer, secret included, for a repeated Idempotency-Key', async () => {
    const { call } = await newCompany('Idem');

    const first = await call('POST', '/webhooks', { body: body(), headers: { 'Idempotency-Key': 'hook-1' } });
    const again = await call('POST', '/webhooks', { body: body(), headers: { 'Idempotency-Key': 'hook-1' } });

    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect((await call('GET', '/webhooks')).body.data).toHaveLength(1);
  });
});

describe('GET /v1/webhooks', () => {
  it('lists newest first with an opaque cursor and refuses a cursor it did not give', async () => {
    const { call } = await newCompany('Lister');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('POST', '/webhooks', { body: body({ description: `n${i}` }) })).body.data.id);

    const first = await call('GET', '/webhooks?limit=2');
    const second = await call('GET', `/webhooks?limit=2&cursor=${first.body.pagination.nextCursor}`);

    expect(first.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([ids[2], ids[1]]);
    expect(second.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([ids[0]]);
    expect(second.body.pagination).toEqual({ nextCursor: null });
    const bad = await call('GET', '/webhooks?cursor=Zm9v');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('cursor');
  });
});

describe('PUT /v1/webhooks/{id}', () => {
  it('replaces the whole registration (omitted fields take their defaults) and keeps the secret', async () => {
    const { companyId, call } = await newCompany('Replacer');
    const created = (await call('POST', '/webhooks', { body: body({ description: 'old', enabled: false }) })).body.data;
    const stored = async () =>
      (await api.db.send(new GetCommand({ TableName: api.runtime.tableName, Key: webhookItem.key(companyId, created.id), ConsistentRead: true }))).Item!;
    const sealedBefore = (await stored()).sealedSecret;

    const replaced = await call('PUT', `/webhooks/${created.id}`, { body: { url: 'http://127.0.0.1:9/v2', events: ['*'] } });

    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toEqual({
      id: created.id,
      url: 'http://127.0.0.1:9/v2',
      events: ['*'],
      description: null,
      enabled: true,
      createdAt: created.createdAt,
      updatedAt: expect.any(String),
    });
    expect(replaced.body.data).not.toHaveProperty('secret');
    expect((await call('GET', `/webhooks/${created.id}`)).body.data).toEqual(replaced.body.data);
    // The same sealed secret: deliveries keep verifying with the one shown at creation.
    expect((await stored()).sealedSecret).toBe(sealedBefore);
    expect(sealedBefore).toMatch(/^local:/);
  });

  it('validates the body and the URL as POST does', async () => {
    const { call } = await newCompany('Replacer2');
    const created = (await call('POST', '/webhooks', { body: body() })).body.data;

    expect((await call('PUT', `/webhooks/${created.id}`, { body: { url: 'https://10.0.0.1/', events: ['*'] } })).status).toBe(400);
    expect((await call('PUT', `/webhooks/${created.id}`, { body: { url: 'http://127.0.0.1:9/' } })).status).toBe(400);
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('answers {id, deleted: true}, after which the webhook is gone', async () => {
    const { call } = await newCompany('Deleter');
    const created = (await call('POST', '/webhooks', { body: body() })).body.data;

    const deleted = await call('DELETE', `/webhooks/${created.id}`);

    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: created.id, deleted: true });
    expect((await call('GET', `/webhooks/${created.id}`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/${created.id}`)).status).toBe(404);
  });
});

describe('another company', () => {
  it("gets 404 NOT_FOUND for a webhook id that is not its own, on every route, and changes nothing", async () => {
    const owner = await newCompany('Owner');
    const other = await newCompany('Other');
    const created = (await owner.call('POST', '/webhooks', { body: body() })).body.data;

    for (const [method, options] of [
      ['GET', {}],
      ['PUT', { body: body({ url: 'http://127.0.0.1:9/stolen' }) }],
      ['DELETE', {}],
    ] as const) {
      const answer = await other.call(method, `/webhooks/${created.id}`, options);
      expect(answer.status, method).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    expect((await other.call('GET', '/webhooks')).body.data).toEqual([]);
    expect((await other.call('GET', '/webhooks/whk_nope')).status).toBe(404);
    expect((await owner.call('GET', `/webhooks/${created.id}`)).body.data.url).toBe('http://127.0.0.1:9/hooks');
  });
});
