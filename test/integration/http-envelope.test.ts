import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { httpRoute } from '#http/route';
import type { IssuedCredentials } from '#functions/api-keys/api-keys';
import { STAGES } from '../../config/stages.ts';
import { freshTable } from '../support/dynamo.ts';

/**
 * The request pipeline every POST route shares (body limit, content type, JSON, valibot, the
 * envelope, the 500 mapping), exercised through the local gateway and a real socket with a route
 * made for the test, so it is proven before, and independently of, any money route.
 */
const seen: unknown[] = [];
const echo = httpRoute(
  { body: v.strictObject({ name: v.pipe(v.string(), v.minLength(1)), count: v.pipe(v.number(), v.integer()), tags: v.optional(v.array(v.string())) }) },
  async ({ body }) => {
    seen.push(body);
    return { status: 201, data: body };
  },
);
const explode = httpRoute({}, async () => {
  throw new Error('ConditionalCheckFailed on table cambio-prod-secret');
});

let server: Server;
let baseUrl: string;
let credentials: IssuedCredentials;

beforeAll(async () => {
  const { db, tableName, endpoint } = await freshTable();
  process.env.STAGE = 'local';
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  ({ credentials } = await createCompany(new DynamoCompanyStore(db, tableName), { name: 'Echo Co', environment: 'sandbox' }));
  const { createLocalApi } = await import('#local/api-server');
  server = await createLocalApi({
    config: STAGES.local,
    routes: [
      { method: 'POST', path: '/v1/echo', handler: 'test/echo', tableAccess: 'read' },
      { method: 'GET', path: '/v1/explode', handler: 'test/explode', tableAccess: 'read' },
    ],
    loadHandler: async (name) => {
      if (name === 'test/echo') return echo;
      if (name === 'test/explode') return explode;
      return ((await import('../../functions/handlers/auth/authorizer.ts')) as { handler: unknown }).handler;
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function post(body: string | undefined, contentType: string | null = 'application/json') {
  const headers: Record<string, string> = { 'X-Api-Key': credentials.apiKey, 'X-Api-Secret': credentials.apiSecret };
  if (contentType) headers['Content-Type'] = contentType;
  const before = seen.length;
  const response = await fetch(`${baseUrl}/echo`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), reachedService: seen.length > before };
}

describe('request bodies', () => {
  it('pass a valid JSON body to the service and wrap the result in the envelope', async () => {
    const response = await post(JSON.stringify({ name: 'a', count: 2 }), 'application/json; charset=utf-8');
    expect(response).toEqual({ status: 201, body: { success: true, data: { name: 'a', count: 2 } }, reachedService: true });
  });

  it('answer malformed JSON with 400 INVALID_JSON', async () => {
    for (const raw of ['{"name":', 'not json', '{"name":"a",}']) {
      const response = await post(raw);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({ code: 'INVALID_JSON', message: 'The request body is not valid JSON', details: null });
      expect(response.reachedService).toBe(false);
    }
  });

  it('answer a body that is not application/json with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const response = await post('name=a', contentType);
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(response.reachedService).toBe(false);
    }
  });

  it('answer a body over 16 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(17 * 1024), count: 1 }));
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(response.reachedService).toBe(false);
  });

  it('name every failing path: unknown fields, wrong types, missing fields', async () => {
    const response = await post(JSON.stringify({ name: 5, tags: ['ok', 7], extra: true }));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    const paths = (response.body.error.details as { path: string; message: string }[]).map((detail) => detail.path).sort();
    expect(paths).toEqual(['count', 'extra', 'name', 'tags.1']);
    expect(response.body.error.details).toContainEqual({ path: 'extra', message: 'is not a known field' });
    expect(response.body.error.details).toContainEqual({ path: 'count', message: 'is required' });
    expect(response.reachedService).toBe(false);
  });

  it('validate a missing body as an empty object, listing the required fields', async () => {
    const response = await post(undefined, null);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['count', 'name']);
  });

  it('refuse a JSON body that is not an object', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const response = await post(raw);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.details[0].path).toBe('(root)');
    }
  });
});

describe('unexpected failures', () => {
  it('answer 500 INTERNAL_ERROR with no internals, and log the cause', async () => {
    // The request's log line (functions/http/access-log.ts) goes straight to stderr, as Powertools does.
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const response = await fetch(`${baseUrl}/explode`, {
      headers: { 'X-Api-Key': credentials.apiKey, 'X-Api-Secret': credentials.apiSecret },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', details: null },
    });
    expect(text).not.toMatch(/cambio-prod-secret|ConditionalCheck|at .*\.ts/);
    expect(logged.mock.calls.flat().join(' ')).toContain('cambio-prod-secret');
    logged.mockRestore();
  });
});
