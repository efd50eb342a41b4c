import { createHash, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ROUTES } from '#functions/routes';
import { MAX_BODY_BYTES } from '#http/route';
import { MAX_JSON_DEPTH } from '#http/json-nesting';
import type { LocalRuntime } from '#local/runtime';
import { apiClient, startTestApi } from '../support/local-api.ts';

/**
 * Issue #12's body attacks, kept: JSON nested thousands of levels deep, and JSON as wide as 16 KiB
 * allows, on every route that takes a body, each with an Idempotency-Key (the fingerprint walks
 * the whole body); and media types written in another case.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof apiClient>;
let db: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  runtime = await startTestApi();
  call = apiClient(runtime);
  db = createDocumentClient(runtime.dynamoEndpoint);
  // The key's first authorization records its `last used` (docs/dashboard-api.md): a write of the
  // authorizer, not of the refused request, so it happens here, before any digest is taken.
  expect((await call('GET', '/company')).status).toBe(200);
});

afterAll(async () => {
  await runtime?.stop();
});

/** Every item of the table: a refused request must leave it as it was. */
async function tableDigest(): Promise<string> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: runtime.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) items.push(JSON.stringify(item, (_, value) => (typeof value === 'bigint' ? String(value) : value)));
    start = page.LastEvaluatedKey;
  } while (start);
  return createHash('sha256').update(items.sort().join('\n')).digest('hex');
}

const BODY_ROUTES = ROUTES.filter((route) => route.method === 'POST' || route.method === 'PUT').map(
  (route) => [`${route.method} ${route.path}`, route.method, route.path.replace('{id}', 'whk_01ARZ3NDEKTSV4RRFFQ69G5FAV').replace(/^\/v1/, '')] as const,
);

/** An array nested `levels` deep: the body was 4,300 levels, 8.5 KB. */
const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe.each(BODY_ROUTES)('%s', (_, method, path) => {
  const send = (rawBody: string) =>
    call(method, path, { rawBody, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `attack-${randomUUID()}` } });

  it('answers JSON nested thousands of levels deep with 400 VALIDATION_FAILED and writes nothing', async () => {
    const before = await tableDigest();
    const bodies = [
      nestedArray(4_300),
      `{"reference":${nestedArray(4_300)}}`,
      `{"a":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`,
      // Just past the bound: the limit, not the stack, refuses it.
      nestedArray(MAX_JSON_DEPTH + 1),
    ];
    for (const body of bodies) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      const response = await send(body);

      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'The request is invalid; see details',
          details: [{ path: '(root)', message: `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep` }],
        },
      });
    }
    expect(await tableDigest()).toBe(before);
  });

  it('treats brackets inside strings as text, and nesting up to the bound as an ordinary body', async () => {
    const before = await tableDigest();
    for (const body of [`{"reference":"${'['.repeat(5_000)}"}`, `{"reference":${nestedArray(MAX_JSON_DEPTH - 1)}}`]) {
      const response = await send(body);

      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.details).not.toContainEqual({ path: '(root)', message: expect.stringContaining('levels deep') });
    }
    expect(await tableDigest()).toBe(before);
  });

  it('answers JSON as wide as 16 KiB allows (thousands of keys, long arrays) with a 4xx in the envelope, writing nothing', async () => {
    const before = await tableDigest();
    const manyKeys = `{${Array.from({ length: 1_700 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const longArray = `{"events":[${Array.from({ length: 4_000 }, () => '"*"').join(',')}]}`;
    const manyEmptyObjects = `{"split":[${Array.from({ length: 5_000 }, () => '{}').join(',')}]}`;
    const sameKeyRepeated = `{${Array.from({ length: 1_000 }, () => '"reference":"x"').join(',')}}`;
    for (const body of [manyKeys, longArray, manyEmptyObjects, sameKeyRepeated, `[${'1,'.repeat(8_000)}1]`]) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      const response = await send(body);

      expect(response.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.status, body.slice(0, 40)).toBeLessThan(500);
      expect(response.body.success).toBe(false);
    }
    expect(await tableDigest()).toBe(before);
  });
});

describe('media types', () => {
  const deposit = () => JSON.stringify({ method: 'usdt', network: 'tron', reference: `mt-${randomUUID()}`, amount: '10' });

  it('accept application/json in any case and with parameters', async () => {
    for (const contentType of ['Application/JSON', 'APPLICATION/JSON', 'application/json; charset=utf-8', 'Application/Json;Charset=UTF-8', 'application/json ; charset=utf-8']) {
      const response = await call('POST', '/deposits', { rawBody: deposit(), headers: { 'Content-Type': contentType } });

      expect(response.status, contentType).toBe(201);
      expect(response.body.success).toBe(true);
    }
  });

  it('keep 415 UNSUPPORTED_MEDIA_TYPE for other media types, whatever their case', async () => {
    // A +json type is JSON to the parser, and still not what the contract takes.
    for (const contentType of ['text/plain', 'Text/JSON', 'application/jsonp', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/problem+json', 'Application/Merge-Patch+JSON; charset=utf-8']) {
      const before = await tableDigest();
      const response = await call('POST', '/deposits', { rawBody: deposit(), headers: { 'Content-Type': contentType } });

      expect(response.status, contentType).toBe(415);
      expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await tableDigest()).toBe(before);
    }
  });
});
