import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { eventItem } from '#adapters/dynamo/items/event';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { domainEvent } from '#functions/shared/events';
import { newId } from '#functions/shared/ids';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { killAll, killed, startRuntimeProcess } from '../support/runtime-process.ts';

/**
 * Issue #12: kill -9 of the local runtime 0.2 s after the dispatcher marked an event dispatched
 * lost that event's webhook for good: its delivery lived only in the in-memory queue. Here the
 * runtime runs in a child process, is killed with SIGKILL as soon as the event is marked
 * dispatched (the endpoint holds every request until then, so no try can have succeeded), and is
 * started again on the same table: the event must still arrive, signed.
 */
const endpoint = inject('dynamoEndpoint');
const tableName = `crash-${randomUUID()}`;
const db = createDocumentClient(endpoint);
const receiver = new WebhookReceiver();
const children: ChildProcess[] = [];

beforeAll(async () => {
  await receiver.start();
});

afterAll(async () => {
  killAll(children);
  await receiver.stop();
});

describe('kill -9 of the local runtime between dispatch and delivery', () => {
  it('still delivers the event, signed, once the runtime is started again on the same data', async () => {
    let crashed = false;
    // Before the crash every request is held unanswered: no try can succeed while the first process lives.
    receiver.respond = (_, res) => {
      if (crashed) res.writeHead(204).end();
    };
    const first = await startRuntimeProcess(endpoint, tableName, children);
    const registered = await fetch(`${first.apiUrl}/webhooks`, {
      method: 'POST',
      headers: { 'X-Api-Key': first.sandbox.apiKey, 'X-Api-Secret': first.sandbox.apiSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url(), events: ['deposit.completed'] }),
    });
    expect(registered.status).toBe(201);
    receiver.secret = ((await registered.json()) as { data: { secret: string } }).data.secret;
    const companyId = first.sandbox.companyId;
    const event = domainEvent(companyId, 'deposit.completed', { id: newId('deposit'), status: 'completed', updatedAt: new Date().toISOString() }, new Date());
    await new MoneyTransaction(tableName).event(event).commit(db);

    let dispatchedAt: string | undefined;
    for (const deadline = Date.now() + 20_000; !dispatchedAt && Date.now() < deadline; ) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: eventItem.key(companyId, event.id), ConsistentRead: true }));
      dispatchedAt = Item?.dispatchedAt as string | undefined;
      if (!dispatchedAt) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(dispatchedAt, 'the event was never dispatched').toBeDefined();
    await killed(first.child);
    crashed = true;
    const triedBeforeCrash = receiver.deliveries.length;

    await startRuntimeProcess(endpoint, tableName, children);
    await receiver.waitFor(triedBeforeCrash + 1, 20_000);

    const delivered = receiver.deliveries.slice(triedBeforeCrash);
    expect(delivered.length, 'the event never arrived after the restart').toBeGreaterThanOrEqual(1);
    expect(delivered[0]!.headers['webhook-id']).toBe(event.id);
    expect(delivered[0]!.verifyError).toBeNull();
    expect(delivered[0]!.verified).toMatchObject({ id: event.id, type: 'deposit.completed' });
  }, 90_000);
});
