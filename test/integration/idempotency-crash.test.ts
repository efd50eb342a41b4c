import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { idempotencyRecordItem } from '#adapters/dynamo/items/idempotency-record';
import type { LocalRuntime } from '#local/runtime';
import { startDyingDynamoProxy, type DyingDynamoProxy } from '../support/dying-dynamo-proxy.ts';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { newCompany, startTestApi, stopTestApi } from '../support/local-api.ts';
import { creditAvailable } from '../support/money.ts';

/**
 * Idempotency-Key against a function's process that dies (a timeout, a lost host) as soon as its
 * write is answered, so what it would write next never reaches the table, or that stalls past its
 * key's 60 s lock while a retry takes the key over. Its own file: the runtime's handlers are loaded
 * once per file, over the DynamoDB endpoint of the first runtime started, here the dying proxy's.
 */
const db = createDocumentClient(inject('dynamoEndpoint'));
let proxy: DyingDynamoProxy;
let runtime: LocalRuntime;

beforeAll(async () => {
  proxy = await startDyingDynamoProxy(inject('dynamoEndpoint'));
  runtime = await startTestApi({ dynamoEndpoint: proxy.url });
});

afterAll(async () => {
  await stopTestApi(runtime, db);
  await proxy.stop();
});

// Loopback over http:// is the local runtime's allowance (contract, Webhooks); nothing listens on port 9.
const body = { url: 'http://127.0.0.1:9/hooks', events: ['deposit.completed'] };

describe('POST /v1/webhooks, its process dying right after the webhook is written', () => {
  // Its caller, with no answer, retries with the same key once the key's 60 s lock has passed.
  it('a retry with the same Idempotency-Key answers with the same endpoint and secret, and registers no second one', async () => {
    const { companyId, call } = await newCompany(runtime, 'Crashing hooks');
    proxy.dieAfter((operation, request) => operation === 'TransactWriteItems' && request.includes('"WEBHOOK#'));
    const first = await call('POST', '/webhooks', { body, headers: { 'Idempotency-Key': 'hook-crash' } });
    expect(proxy.dead).toBe(true);
    // The simulated process still answers (what it needs after the write it has): its caller,
    // in the story, never hears it.
    expect(first.status).toBe(201);
    proxy.revive();
    // A minute later: the key's lock has passed (IN_FLIGHT_LOCK_SECONDS).
    const key = idempotencyRecordItem.key(companyId, 'hook-crash');
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: key, UpdateExpression: 'SET lockedUntil = :past', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':past': 1 } }));
    const registered = (await call('GET', '/webhooks')).body.data;
    expect(registered).toHaveLength(1);

    const retried = await call('POST', '/webhooks', { body, headers: { 'Idempotency-Key': 'hook-crash' } });

    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data).toEqual(first.body.data);
    expect(retried.body.data).toEqual({ ...registered[0], secret: first.body.data.secret });
    expect((await call('GET', '/webhooks')).body.data).toHaveLength(1);
  });
});

describe('every other create route, its process dying right after its record is written', () => {
  // Before, the retry after the lock met its own record: 409 DUPLICATE_REFERENCE or
  // QUOTE_ALREADY_USED, stored as the key's answer for 24 h, instead of the first 201.
  const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_998);
  const routes: { path: string; body: (call: Awaited<ReturnType<typeof newCompany>>['call']) => Promise<object>; written: string }[] = [
    { path: '/deposits', body: async () => ({ method: 'usdt', network: 'tron', reference: 'order-crash' }), written: 'order-crash' },
    { path: '/withdrawals', body: async () => ({ method: 'usdt', network: 'tron', address: destination, amount: '10', reference: 'payout-crash' }), written: 'payout-crash' },
    {
      path: '/conversions',
      body: async (call) => ({ quoteId: (await call('POST', '/conversions/quote', { body: { sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' } })).body.data.id }),
      written: '"conversion:',
    },
  ];

  it.each(routes.map((route) => [route.path, route] as const))('POST /v1%s: a retry with the same key after its lock replays the first 201', async (path, { body: bodyFor, written }) => {
    const { companyId, call } = await newCompany(runtime, `Crashing ${path}`);
    await creditAvailable(db, runtime.tableName, companyId, 'USDT', '100');
    const request = await bodyFor(call);
    proxy.dieAfter((operation, sent) => operation === 'TransactWriteItems' && sent.includes(written));
    const first = await call('POST', path, { body: request, headers: { 'Idempotency-Key': `crash${path}` } });
    expect(proxy.dead).toBe(true);
    proxy.revive();
    expect(first.status).toBe(201);
    const key = idempotencyRecordItem.key(companyId, `crash${path}`);
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: key, UpdateExpression: 'SET lockedUntil = :past', ExpressionAttributeValues: { ':past': 1 } }));

    const retried = await call('POST', path, { body: request, headers: { 'Idempotency-Key': `crash${path}` } });

    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.text).toBe(first.text);
  });
});

describe('a webhook request whose key was taken over while it ran', () => {
  it('over the API: the stalled request answers 409 and registers nothing; the retry that took the key keeps its answer', async () => {
    const { companyId, call } = await newCompany(runtime, 'Stalled hooks');
    const stalled = proxy.pauseBefore((operation, request) => operation === 'TransactWriteItems' && request.includes('"WEBHOOK#'));
    const first = call('POST', '/webhooks', { body, headers: { 'Idempotency-Key': 'hook-stall' } });
    await stalled.reached;
    const key = idempotencyRecordItem.key(companyId, 'hook-stall');
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: key, UpdateExpression: 'SET lockedUntil = :past', ExpressionAttributeValues: { ':past': 1 } }));
    const retried = await call('POST', '/webhooks', { body, headers: { 'Idempotency-Key': 'hook-stall' } });
    expect(retried.status).toBe(201);

    stalled.resume();
    const late = await first;

    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect((await call('GET', '/webhooks')).body.data.map((webhook: { id: string }) => webhook.id)).toEqual([retried.body.data.id]);
    // Its client retries a 409 IDEMPOTENCY_KEY_IN_USE: the answer it then gets is the endpoint registered.
    const again = await call('POST', '/webhooks', { body, headers: { 'Idempotency-Key': 'hook-stall' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(retried.body.data);
  });
});

describe('a request that stalled past its lock while a retry took its key over (any route)', () => {
  it('does not store its late answer over the retry\'s, nor free the retry\'s key', async () => {
    const { companyId, call } = await newCompany(runtime, 'Stalled orders');
    const order = { method: 'usdt', network: 'tron', reference: 'order-stall-1' };
    const stalled = proxy.pauseBefore((operation, request) => operation === 'TransactWriteItems' && request.includes('order-stall-1'));
    const first = call('POST', '/deposits', { body: order, headers: { 'Idempotency-Key': 'order-stall' } });
    await stalled.reached;
    const key = idempotencyRecordItem.key(companyId, 'order-stall');
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: key, UpdateExpression: 'SET lockedUntil = :past', ExpressionAttributeValues: { ':past': 1 } }));
    const retried = await call('POST', '/deposits', { body: order, headers: { 'Idempotency-Key': 'order-stall' } });
    expect(retried.status).toBe(201);

    stalled.resume();
    // The reference is the retry's now: the stalled request is refused by it.
    expect((await first).body.error.code).toBe('DUPLICATE_REFERENCE');

    const again = await call('POST', '/deposits', { body: order, headers: { 'Idempotency-Key': 'order-stall' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(retried.body.data);
  });
});
