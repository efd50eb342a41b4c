import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { storedEvents } from '../support/records.ts';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { ROUTES } from '#functions/routes';
import { ROUTE_DOCS, type RouteKey } from '#functions/openapi/route-docs';
import { API_BASE_PATH, documentedPath } from '#functions/openapi/servers';
import { EVENT_DATA } from '#functions/handlers/webhooks/records';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { startTestApi } from '../support/local-api.ts';
import { waitFor } from '../support/wait.ts';
import { loadOpenApi, openApiValidators } from '../support/openapi.ts';

/**
 * The contract test: every request here is built from openapi.json alone (its paths, relative to
 * the local server's URL as a generated client joins them, its security scheme header names, its
 * Idempotency-Key parameter, its request examples), sent over a real socket to the local runtime, and every answer must have a status the document lists for that
 * route and a body its schema for that status accepts. Ids come from earlier answers, as they
 * would for an integrator. Each route is shown answering success and at least one documented error.
 */
const BLOCK_MS = 50;
const doc = loadOpenApi();
const validators = openApiValidators(doc);
const security = doc.components.securitySchemes as Record<'ApiKey' | 'ApiSecret', { name: string }>;
const idempotencyHeader = (doc.components.parameters.IdempotencyKey as { name: string }).name;
const UNKNOWN_ID = { deposits: 'dep_00000000000000000000000000', withdrawals: 'wdr_00000000000000000000000000', conversions: 'cnv_00000000000000000000000000', webhooks: 'whk_00000000000000000000000000' };

let runtime: LocalRuntime;
/** The local server of openapi.json's `servers` (http://127.0.0.1:{port}/v1), with the runtime's port. */
let serverUrl: string;
const seen = new Map<RouteKey, Set<number>>();

beforeAll(async () => {
  runtime = await startTestApi({ environment: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS) }, pollIntervalMs: 100 });
  const local = (doc.servers as { url: string }[]).find((server) => server.url.startsWith('http://127.0.0.1:'))!;
  serverUrl = local.url.replace('{port}', new URL(runtime.apiUrl).port);
  expect(serverUrl).toBe(runtime.apiUrl);
});

afterAll(async () => {
  await runtime?.stop();
});

function example(method: string, path: string): Record<string, unknown> {
  return structuredClone(doc.paths[path]![method.toLowerCase()].requestBody.content['application/json'].example);
}

interface Sent {
  status: number;
  body: any;
  headers: Headers;
}

/** Sends (method, documented path) and checks the answer against the document. */
async function send(
  method: string,
  path: string,
  options: { id?: string; query?: string; body?: unknown; auth?: boolean; idempotencyKey?: string } = {},
): Promise<Sent> {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in openapi.json`);
  const headers: Record<string, string> = {};
  if (options.auth !== false) {
    headers[security.ApiKey.name] = runtime.sandbox.apiKey;
    headers[security.ApiSecret.name] = runtime.sandbox.apiSecret;
  }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST') headers[idempotencyHeader] = options.idempotencyKey ?? randomUUID();
  const url = `${serverUrl}${path.replace('{id}', encodeURIComponent(options.id ?? ''))}${options.query ?? ''}`;
  const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const body: any = await response.json();
  const label = `${method} ${path} → ${response.status} ${JSON.stringify(body).slice(0, 300)}`;

  expect(Object.keys(operation.responses), `${label}: status not documented`).toContain(String(response.status));
  const validate = validators.response(path, method, response.status);
  expect(validate(body), `${label}\n${validators.errorsText(validate)}`).toBe(true);
  expect(response.headers.get('x-request-id'), label).toBeTruthy();

  // Every error has the one ErrorResponse schema; the codes this route answers at this status are listed beside it.
  if (response.status >= 400) expect(operation.responses[String(response.status)]['x-error-codes'], `${label}: code not documented`).toContain(body.error.code);

  const key = `${method} ${API_BASE_PATH}${path}` as RouteKey;
  if (!seen.has(key)) seen.set(key, new Set());
  seen.get(key)!.add(response.status);
  // The same answer against the valibot record the document was generated from (strict objects).
  if (response.status < 300) {
    const record = ROUTE_DOCS[key]!.success.record.schema;
    for (const item of Array.isArray(body.data) ? body.data : [body.data]) {
      const parsed = v.safeParse(record, item);
      expect(parsed.success, `${label}: ${JSON.stringify(parsed.issues?.map((issue) => [v.getDotPath(issue), issue.message]))}`).toBe(true);
    }
  }
  return { status: response.status, body, headers: response.headers };
}

describe('every route answers as openapi.json documents it', () => {
  it('webhooks: create, list, get, replace, delete, and their errors', async () => {
    // The documented example targets a public host; the local runtime's own loopback rule lets this test receive nothing.
    const body = { ...example('POST', '/webhooks'), url: 'http://127.0.0.1:9/cambio' };
    const created = await send('POST', '/webhooks', { body });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await send('GET', '/webhooks', { query: '?limit=1' })).status).toBe(200);
    expect((await send('GET', '/webhooks/{id}', { id })).status).toBe(200);
    expect((await send('PUT', '/webhooks/{id}', { id, body: { ...body, enabled: false } })).status).toBe(200);
    expect((await send('DELETE', '/webhooks/{id}', { id })).status).toBe(200);

    expect((await send('POST', '/webhooks', { body: {} })).status).toBe(400);
    expect((await send('GET', '/webhooks', { query: '?limit=0' })).status).toBe(400);
    expect((await send('GET', '/webhooks/{id}', { id })).status).toBe(404);
    expect((await send('PUT', '/webhooks/{id}', { id: UNKNOWN_ID.webhooks, body })).status).toBe(404);
    expect((await send('DELETE', '/webhooks/{id}', { id })).status).toBe(404);
  });

  it('deposits: create (replayed with its Idempotency-Key), paid on the sandbox chain, get, and their errors', async () => {
    const key = randomUUID();
    const created = await send('POST', '/deposits', { body: example('POST', '/deposits'), idempotencyKey: key });
    expect(created.status).toBe(201);
    const replay = await send('POST', '/deposits', { body: example('POST', '/deposits'), idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created.body);
    const { id, address } = created.body.data;

    const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19 });
    await chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 123_456),
      to: address,
      amount: parseAmount(created.body.data.amount, 'USDT'),
    });
    const completed = await waitFor(
      () => send('GET', '/deposits/{id}', { id }),
      (answer) => answer.body.data.status === 'completed',
    );
    expect(completed.body.data.status).toBe('completed');

    expect((await send('POST', '/deposits', { body: {} })).status).toBe(400);
    const duplicate = await send('POST', '/deposits', { body: example('POST', '/deposits') });
    expect(duplicate.body.error.code).toBe('DUPLICATE_REFERENCE');
    expect((await send('GET', '/deposits/{id}', { id: UNKNOWN_ID.deposits })).status).toBe(404);
  }, 60_000);

  it('deposits: one paid to an address the token\'s issuer froze is held, with its holdReason, as documented', async () => {
    const created = await send('POST', '/deposits', { body: { ...example('POST', '/deposits'), reference: 'held-by-the-issuer' } });
    const { id, address } = created.body.data;
    const db = createDocumentClient(runtime.dynamoEndpoint);
    await tronSandboxIssuer(db, runtime.tableName).freeze(address);
    const chain = new SandboxChain(db, runtime.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19 });
    await chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 123_457),
      to: address,
      amount: parseAmount('5', 'USDT'),
    });
    const held = await waitFor(
      () => send('GET', '/deposits/{id}', { id }),
      (answer) => answer.body.data.status === 'held',
    );
    expect(held.body.data).toMatchObject({ status: 'held', holdReason: 'address_frozen', receivedAmount: '5.000000', creditedAmount: '0.000000' });
  }, 60_000);

  it('conversions: quote, execute, list, get, and their errors', async () => {
    const quote = await send('POST', '/conversions/quote', { body: example('POST', '/conversions/quote') });
    expect(quote.status).toBe(201);
    const body = { ...example('POST', '/conversions'), quoteId: quote.body.data.id };
    const conversion = await send('POST', '/conversions', { body });
    expect(conversion.status).toBe(201);
    const again = await send('POST', '/conversions', { body });
    expect(again.body.error.code).toBe('QUOTE_ALREADY_USED');
    const list = await send('GET', '/conversions', { query: '?limit=10' });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([conversion.body.data.id]);
    expect((await send('GET', '/conversions/{id}', { id: conversion.body.data.id })).status).toBe(200);

    expect((await send('POST', '/conversions/quote', { body: { ...example('POST', '/conversions/quote'), sourceAmount: 10 } })).status).toBe(400);
    expect((await send('POST', '/conversions', { body: example('POST', '/conversions') })).status).toBe(404);
    expect((await send('GET', '/conversions', { query: '?limit=0' })).status).toBe(400);
    expect((await send('GET', '/conversions/{id}', { id: UNKNOWN_ID.conversions })).status).toBe(404);
  });

  it('withdrawals: create, get, and their errors', async () => {
    const created = await send('POST', '/withdrawals', { body: example('POST', '/withdrawals') });
    expect(created.status).toBe(201);
    expect((await send('GET', '/withdrawals/{id}', { id: created.body.data.id })).status).toBe(200);

    expect((await send('POST', '/withdrawals', { body: { ...example('POST', '/withdrawals'), address: 'not-tron' } })).status).toBe(400);
    const tooMuch = await send('POST', '/withdrawals', { body: { ...example('POST', '/withdrawals'), amount: '1000000', reference: 'too-much' } });
    expect(tooMuch.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await send('GET', '/withdrawals/{id}', { id: UNKNOWN_ID.withdrawals })).status).toBe(404);
  });

  it('company: get and balance', async () => {
    expect((await send('GET', '/company')).status).toBe(200);
    const balance = await send('GET', '/company/balance');
    expect(balance.body.data.balances.map((b: { currency: string }) => b.currency)).toEqual(['USDT', 'BRL']);
  });

  it('every route refuses a request without the two security headers with its documented 401', async () => {
    for (const route of ROUTES) {
      const answer = await send(route.method, documentedPath(route.path), {
        id: UNKNOWN_ID.deposits,
        ...(route.method === 'POST' || route.method === 'PUT' ? { body: {} } : {}),
        auth: false,
      });
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it('the events written meanwhile are the payloads the webhooks section documents', async () => {
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const events = (await storedEvents(db, runtime.tableName, runtime.sandbox.companyId)) as { type: keyof typeof EVENT_DATA }[];
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['deposit.confirming', 'deposit.completed', 'deposit.held', 'conversion.completed']));
    for (const event of events) {
      const validate = validators.event(event.type);
      expect(validate(event), `${event.type}: ${validators.errorsText(validate)}`).toBe(true);
    }
  });

  it('covered success and at least one documented error for every route', () => {
    for (const route of ROUTES) {
      const statuses = [...(seen.get(`${route.method} ${route.path}` as RouteKey) ?? [])];
      expect(statuses.some((status) => status < 300), `${route.method} ${route.path} success`).toBe(true);
      expect(statuses.some((status) => status >= 400), `${route.method} ${route.path} error`).toBe(true);
    }
  });
});
