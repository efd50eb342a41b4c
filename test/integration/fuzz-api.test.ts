import { createHash } from 'node:crypto';
import { addressIndexCounterItem } from '#adapters/dynamo/items/deposit-address';
import { idempotencyRecordItem } from '#adapters/dynamo/items/idempotency-record';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '#http/error-status';
import { ROUTES, type RouteSpec } from '#functions/routes';
import { useTestApi } from '../support/local-api.ts';
import { creditAvailable } from '../support/money.ts';

/**
 * Property-based bad input for every route: whatever the body, headers, path or query, the API
 * answers in the envelope with a contract code and never a 5xx, and a refused request (4xx)
 * changes no business data.
 */
const api = useTestApi();

beforeAll(async () => {
  // Money to move, so that some fuzzed requests get past validation and reach the guards.
  await creditAvailable(api.db, api.runtime.tableName, api.runtime.sandbox.companyId, 'USDT', '50');
});

/**
 * A digest of the table's business data. Left out: the address-index counter (an index is taken
 * before the deposit's transaction and never reused, so a refused deposit may burn one) and
 * Idempotency-Key records (a refusal such as 422 is stored to be replayed, by design).
 */
async function businessDigest(): Promise<string> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await api.db.send(new ScanCommand({ TableName: api.runtime.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      if (item.type === addressIndexCounterItem.type || item.type === idempotencyRecordItem.type) continue;
      items.push(JSON.stringify(item, (_, value) => (typeof value === 'bigint' ? value.toString() : value)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return createHash('sha256').update(items.sort().join('\n')).digest('hex');
}

const KNOWN_FIELDS = [
  'method', 'network', 'reference', 'amount', 'address', 'split', 'percent', 'sourceCurrency', 'settlementCurrency',
  'sourceAmount', 'quoteId', 'url', 'events', 'description', 'enabled',
];

/** Values that look almost right as often as values that are nothing like it. */
const nearlyValue = fc.oneof(
  fc.constantFrom('usdt', 'tron', 'USDT', 'BRL', '10', '0', '-1', '1e3', '0.0000001', '1.001', '99999999999999999999', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'https://127.0.0.1/hook', 'http://10.0.0.1/', '["*"]', 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV', ''),
  fc.constantFrom(null, true, 0, 1, 1.5, -1, 1e21, [], {}, ['*'], ['deposit.completed']),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A valid body per route, so that mutations of one or two fields reach the deeper checks. */
const VALID_BODIES: Record<string, (unique: string) => Record<string, unknown>> = {
  'POST /v1/deposits': (unique) => ({ method: 'usdt', network: 'tron', reference: `fz-${unique}`, amount: '10' }),
  'POST /v1/withdrawals': (unique) => ({ method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '1.5', reference: `fz-${unique}` }),
  'POST /v1/conversions/quote': () => ({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' }),
  'POST /v1/conversions': () => ({ quoteId: 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
  // A public IP literal: valid without DNS, which this machine does not have.
  'POST /v1/webhooks': () => ({ url: 'https://93.184.216.34/hooks', events: ['*'] }),
  'PUT /v1/webhooks/{id}': () => ({ url: 'https://93.184.216.34/hooks', events: ['deposit.completed'] }),
};

const mutatedValidBody = (route: RouteSpec) =>
  fc
    .record({
      unique: fc.uuid(),
      changes: fc.array(fc.tuple(fc.constantFrom(...KNOWN_FIELDS, 'unknownField'), fc.option(nearlyValue, { nil: undefined })), { maxLength: 2 }),
    })
    .map(({ unique, changes }) => {
      const valid = VALID_BODIES[`${route.method} ${route.path}`]?.(unique) ?? {};
      for (const [field, value] of changes) {
        if (value === undefined) delete valid[field];
        else valid[field] = value;
      }
      return JSON.stringify(valid);
    });

const body = (route: RouteSpec) => fc.oneof(
  { weight: 4, arbitrary: mutatedValidBody(route) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...KNOWN_FIELDS), nearlyValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const pathId = fc.oneof(
  fc.constantFrom('dep_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'wdr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'cnv_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'whk_01ARZ3NDEKTSV4RRFFQ69G5FAV', '..', '%00', 'a'.repeat(300)),
  fc.string({ minLength: 1, maxLength: 30 }).map((value) => encodeURIComponent(value)),
);

const request = (route: RouteSpec) => fc.record({
  body: body(route),
  id: pathId,
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', undefined) },
  ),
  idempotencyKey: fc.option(fc.string({ minLength: 0, maxLength: 300 }).filter((value) => /^[\x20-\x7e]*$/.test(value)), { nil: undefined }),
  query: fc.dictionary(fc.constantFrom('limit', 'cursor', 'x', 'status'), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
});

interface FuzzedRequest {
  body: string | undefined;
  id: string;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  query: Record<string, string>;
}

async function send(route: RouteSpec, input: FuzzedRequest) {
  const path = route.path.replace('{id}', input.id).replace(/^\/v1/, '');
  const query = new URLSearchParams(input.query).toString();
  const headers: Record<string, string> = { 'X-Api-Key': api.runtime.sandbox.apiKey, 'X-Api-Secret': api.runtime.sandbox.apiSecret };
  if (input.contentType) headers['Content-Type'] = input.contentType;
  if (input.idempotencyKey !== undefined) headers['Idempotency-Key'] = input.idempotencyKey;
  const withBody = route.method === 'POST' || route.method === 'PUT';
  const response = await fetch(`${api.runtime.apiUrl}${path}${query ? `?${query}` : ''}`, {
    method: route.method,
    headers,
    body: withBody ? input.body : undefined,
  });
  return { status: response.status, text: await response.text() };
}

describe.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))('%s under fuzzed input', (_, route) => {
  it('never answers 5xx, always the envelope with a contract code, and a refusal writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(request(route), async (input) => {
        const before = await businessDigest();
        const { status, text } = await send(route, input);
        expect(status, text).toBeLessThan(500);
        const envelope = JSON.parse(text) as { success: boolean; error?: { code: keyof typeof ERROR_STATUS; details: unknown } };
        if (status >= 400) {
          expect(envelope.success).toBe(false);
          expect(ERROR_STATUS[envelope.error!.code], text).toBe(status);
          expect(await businessDigest(), `${status} ${text} changed data`).toBe(before);
        } else {
          expect(envelope.success).toBe(true);
        }
      }),
      { numRuns: 60, seed: 20261122 },
    );
  }, 120_000);
});

describe('authentication under fuzzed headers', () => {
  it('any key and secret but the right pair is 401 AUTH_FAILED', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }).filter((value) => /^[\x21-\x7e]*$/.test(value)),
        fc.string({ maxLength: 80 }).filter((value) => /^[\x21-\x7e]*$/.test(value)),
        fc.constantFrom(...ROUTES),
        async (key, secret, route) => {
          const response = await fetch(`${api.runtime.apiUrl}${route.path.replace('{id}', 'x').replace(/^\/v1/, '')}`, {
            method: route.method,
            headers: { 'X-Api-Key': key, 'X-Api-Secret': secret },
          });
          expect(response.status).toBe(401);
          expect(((await response.json()) as { error: { code: string } }).error.code).toBe('AUTH_FAILED');
        },
      ),
      { numRuns: 60, seed: 20261122 },
    );
  });
});
