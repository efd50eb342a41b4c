import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, NumberValue, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { eventItem as storedEventItem } from '#adapters/dynamo/items/event';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { DynamoDispatchStore } from '#adapters/dynamo/event-dispatch-store';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { companyItem } from '#adapters/dynamo/items/company';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWebhookAlertStore } from '#adapters/dynamo/webhook-alert-store';
import { OutboxMailer } from '#adapters/mail/outbox-mailer';
import { alertGivenUpDelivery } from '#functions/webhooks/webhook-alerts';
import type { Mailer } from '#functions/mail/mail';
import { CONTRACT_RETRY_SCHEDULE } from '#functions/webhooks/retry-schedule';
import type { Role } from '#functions/people/team';
import { mailsTo } from '../support/outbox.ts';
import { webhookDeliveryItem } from '#adapters/dynamo/items/webhook-delivery';
import { DynamoDeliveryStore } from '#adapters/dynamo/webhook-delivery-store';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { DynamoWebhookEndpointStore } from '#adapters/dynamo/webhook-endpoint-store';
import { postWebhook } from '#adapters/webhooks/http-poster';
import { InProcessDeliveryQueue, InProcessQueue } from '#adapters/webhooks/in-process-queue';
import { DynamoQueueJournal } from '#adapters/dynamo/local-queue-store';
import { domainEvent, type DomainEvent, type EventType } from '#functions/shared/events';
import { newId } from '#functions/shared/ids';
import {
  dispatchUndispatched,
  parseRetrySchedule,
  sendDelivery,
  type DeliveryMessage,
  type SenderDeps,
  type SenderSettings,
} from '#functions/webhooks/webhook-delivery';
import type { Resolver } from '#functions/webhooks/webhook-url';
import { changeWebhook, newWebhookSecret, replaceWebhook, signWebhook, type Webhook, type WebhookInput } from '#functions/webhooks/webhooks';
import { registeredWebhook } from '../support/records.ts';
import { sealPlainSecrets, signingContext } from '#functions/webhooks/webhook-secrets';
import { LocalSecretSealer } from '#adapters/webhook-secrets/local-sealer';
import { STAGES } from '../../config/stages.ts';
import { freshTable } from '../support/dynamo.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

let db: ReturnType<typeof createDocumentClient>;
let tableName: string;
let registry: DynamoWebhookRegistry;
let dispatch: DynamoDispatchStore;
let deliveries: DynamoDeliveryStore;
const receivers: WebhookReceiver[] = [];
const sealer = new LocalSecretSealer(STAGES.local.functionEnvironment.LOCAL_WEBHOOK_SEALING_KEY!);

beforeAll(async () => {
  ({ db, tableName } = await freshTable());
  registry = new DynamoWebhookRegistry(db, tableName);
  dispatch = new DynamoDispatchStore(db, tableName);
  deliveries = new DynamoDeliveryStore(db, tableName);
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});

afterAll(() => db?.destroy());

/** A fresh queue pair per test, with the stack's receive limit. */
function queues() {
  const deadLetter = new InProcessQueue({ visibilityTimeoutMs: 60_000 });
  const queue = new InProcessQueue({ visibilityTimeoutMs: 200, maxReceiveCount: 10, deadLetter });
  return new InProcessDeliveryQueue(queue, deadLetter);
}

// "receiver.test" exists only here: the sender must connect to the address this resolver gave.
const resolve: Resolver = async (hostname) => {
  if (hostname === 'receiver.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'rebound.test') return [{ address: '10.0.0.7', family: 4 }];
  throw new Error(`ENOTFOUND ${hostname}`);
};

const settings = (overrides: Partial<SenderSettings> = {}): SenderSettings => ({
  // Nine short waits: ten tries, as the contract's schedule makes, in well under a second.
  retryScheduleMs: parseRetrySchedule('10ms,10ms,10ms,10ms,10ms,10ms,10ms,10ms,10ms'),
  timeoutMs: 2_000,
  policy: { allowLoopbackHttp: true },
  resolve,
  jitter: 0.1,
  ...overrides,
});

async function startReceiver(): Promise<WebhookReceiver> {
  const receiver = await new WebhookReceiver().start();
  receivers.push(receiver);
  return receiver;
}

/** A webhook stored as POST /v1/webhooks stores it (its secret sealed), with the secret the
 * receiver verifies with; nothing listens on port 9 unless a test gives its receiver's URL. */
const registerWebhook = (companyId: string, input: Partial<WebhookInput> = {}) =>
  registeredWebhook(registry, sealer, companyId, { url: 'http://127.0.0.1:9/hooks', events: ['*'], ...input });

/** An event written the way every state change writes one (transaction.ts `event()`). */
async function writeEvent(companyId: string, type: EventType = 'deposit.completed'): Promise<DomainEvent> {
  const event = domainEvent(companyId, type, { id: newId('deposit'), status: 'completed', updatedAt: new Date().toISOString() }, new Date());
  await new MoneyTransaction(tableName).event(event).commit(db);
  return event;
}

/** The sender's loop over an in-process queue, as the local runtime runs it, until the queue is empty. */
async function runSender(deps: SenderDeps, queue: InProcessQueue, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const received = await queue.receive(10);
    if (received.length === 0) {
      const next = queue.nextVisibleInMs();
      if (next === null) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(next, 1)));
      continue;
    }
    for (const message of received) {
      await sendDelivery(deps, JSON.parse(message.body) as DeliveryMessage);
      await queue.delete(message.receiptHandle);
    }
  }
  throw new Error('sender did not drain the queue in time');
}

async function deliveryItem(companyId: string, eventId: string, webhookId: string) {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: webhookDeliveryItem.key(companyId, eventId, webhookId), ConsistentRead: true }),
  );
  return Item && (plain(Item) as Record<string, any>);
}

/** The document client keeps numbers wrapped (no float ever); tests read them as plain numbers. */
function plain(value: unknown): unknown {
  if (value instanceof NumberValue) return Number(value.toString());
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

async function eventItem(companyId: string, eventId: string) {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: storedEventItem.key(companyId, eventId), ConsistentRead: true }));
  return Item as Record<string, any>;
}

const companyId = () => newId('company');

/**
 * A receiver listening (answering as `respond` says), a company's webhook to it (at `path`) whose
 * secret it verifies with, one event of that company waiting for dispatch, and a fresh queue pair.
 */
async function subscribedReceiver(options: { path?: string; respond?: WebhookReceiver['respond'] } = {}) {
  const company = companyId();
  const receiver = await startReceiver();
  if (options.respond) receiver.respond = options.respond;
  const webhook = await registerWebhook(company, { url: receiver.url(options.path) });
  receiver.secret = webhook.secret;
  return { company, receiver, webhook, event: await writeEvent(company), delivery: queues() };
}

/** A receiver that answers every try 500, its subscribed webhook and event, the sender's deps, and
 * the message of a round's try. */
async function failingReceiver() {
  const subscribed = await subscribedReceiver({ respond: (_, res) => res.writeHead(500).end('boom') });
  const { company, webhook, event, delivery } = subscribed;
  const deps = { store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() };
  const message = (round: number, attempt: number): DeliveryMessage => ({ companyId: company, eventId: event.id, webhookId: webhook.id, round, attempt });
  return { ...subscribed, deps, message };
}

/** The dispatcher's pass and the sender's loop, as the local runtime runs them, until the queue is empty. */
async function dispatchAndSend(delivery: InProcessDeliveryQueue, post: SenderDeps['post'] = postWebhook): Promise<void> {
  await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
  await runSender({ store: deliveries, queue: delivery, sealer, post, settings: settings() }, delivery.queue);
}

describe('dispatch', () => {
  it('queues one message per enabled webhook subscribed to the type, records where it went, then clears the mark', async () => {
    const company = companyId();
    const all = await registerWebhook(company, { events: ['*'] });
    const conversions = await registerWebhook(company, { events: ['conversion.completed', 'deposit.completed'] });
    await registerWebhook(company, { events: ['withdrawal.failed'] });
    await registerWebhook(company, { events: ['*'], enabled: false });
    await registerWebhook(companyId(), { events: ['*'] });
    const event = await writeEvent(company, 'conversion.completed');
    const delivery = queues();

    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });

    const messages = delivery.queue.peek().map((body) => JSON.parse(body));
    const mine = messages.filter((message) => message.eventId === event.id);
    expect(mine.map((message) => message.webhookId).sort()).toEqual([all.id, conversions.id].sort());
    expect(mine[0]).toMatchObject({ companyId: company, eventId: event.id, round: 0, attempt: 1 });
    const stored = await eventItem(company, event.id);
    expect(stored.dispatchedTo.sort()).toEqual([all.id, conversions.id].sort());
    expect(stored.GSI1PK).toBeUndefined();
  });

  it('killed after queueing but before marking: sent again on the next pass, and the receiver sees one event id', async () => {
    const { company, receiver, event, delivery } = await subscribedReceiver();
    const dying = Object.create(dispatch) as DynamoDispatchStore;
    dying.markDispatched = async () => {
      throw new Error('killed');
    };

    await expect(dispatchUndispatched({ store: dying, queue: delivery }, { minAgeMs: 0 })).rejects.toThrow('killed');
    expect((await eventItem(company, event.id)).GSI1PK).toBe('EVENTS#UNDISPATCHED');
    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    const queued = delivery.queue.peek().filter((body) => body.includes(event.id));
    await runSender({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() }, delivery.queue);

    expect(queued).toHaveLength(2);
    expect(receiver.deliveries.length).toBeGreaterThanOrEqual(1);
    expect(receiver.deliveries.length).toBeLessThanOrEqual(2);
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(receiver.deliveries.every((d) => d.verifyError === null)).toBe(true);
    expect((await eventItem(company, event.id)).GSI1PK).toBeUndefined();
  });

  it('dispatches every undispatched event in one catch-up pass, page after page, not one page of 100 a minute', async () => {
    const company = companyId();
    const webhook = await registerWebhook(company);
    const events: DomainEvent[] = [];
    for (let n = 0; n < 230; n++) events.push(await writeEvent(company));
    const delivery = queues();

    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });

    const marks = await Promise.all(events.map(async (event) => (await eventItem(company, event.id)).dispatchedTo));
    expect(marks.filter((dispatchedTo) => JSON.stringify(dispatchedTo) === JSON.stringify([webhook.id]))).toHaveLength(230);
    // Each queued once.
    const queued = delivery.queue.peek().map((body) => JSON.parse(body) as DeliveryMessage).filter((message) => message.companyId === company);
    expect(queued).toHaveLength(230);
    expect(new Set(queued.map((message) => message.eventId)).size).toBe(230);
  });

  it('leaves events younger than the minimum age to the stream', async () => {
    const company = companyId();
    await registerWebhook(company);
    const event = await writeEvent(company);
    const delivery = queues();

    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 60_000 });

    expect(delivery.queue.peek().some((body) => body.includes(event.id))).toBe(false);
    expect((await eventItem(company, event.id)).GSI1PK).toBe('EVENTS#UNDISPATCHED');
  });
});

describe('send', () => {
  it('POSTs the stored payload byte for byte with the Standard Webhooks headers, verified by standardwebhooks', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver({ path: '/in?src=cambio' });

    await dispatchAndSend(delivery);

    expect(receiver.deliveries).toHaveLength(1);
    const [received] = receiver.deliveries;
    expect(received!.verifyError).toBeNull();
    expect(received!.body).toBe(event.payload);
    expect(received!.verified).toEqual(JSON.parse(event.payload));
    expect(received!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Cambio-Webhooks/1',
      'webhook-id': event.id,
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(Math.abs(Number(received!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    const item = await deliveryItem(company, event.id, webhook.id);
    expect(item).toMatchObject({ type: 'WebhookDelivery', status: 'succeeded', eventType: 'deposit.completed' });
    expect(item!.attempts).toEqual([
      { round: 0, attempt: 1, at: expect.any(String), url: webhook.url, statusCode: 204, durationMs: expect.any(Number), error: null },
    ]);
  });

  it('retries while the receiver is down and delivers once it is up, with the same webhook-id', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    await receiver.stop();
    const webhook = await registerWebhook(company, { url: receiver.url() });
    receiver.secret = webhook.secret;
    const event = await writeEvent(company);
    const delivery = queues();
    let tries = 0;
    const post: SenderDeps['post'] = async (target, request) => {
      const result = await postWebhook(target, request);
      if (++tries === 3) await receiver.start();
      return result;
    };

    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    await runSender({ store: deliveries, queue: delivery, sealer, post, settings: settings() }, delivery.queue);

    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.headers['webhook-id']).toBe(event.id);
    expect(receiver.deliveries[0]!.verifyError).toBeNull();
    const item = await deliveryItem(company, event.id, webhook.id);
    expect(item!.status).toBe('succeeded');
    expect(item!.attempts.map((a: { attempt: number; statusCode: number | null }) => [a.attempt, a.statusCode])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [4, 204],
    ]);
    expect(item!.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(delivery.deadLetter.peek()).toEqual([]);
  });

  it('after the last try: in the dead-letter queue, marked failed, every attempt recorded', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver({ respond: (_, res) => res.writeHead(500).end('boom') });

    await dispatchAndSend(delivery);

    expect(receiver.deliveries).toHaveLength(10);
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(receiver.deliveries.every((d) => d.verifyError === null)).toBe(true);
    const item = await deliveryItem(company, event.id, webhook.id);
    expect(item).toMatchObject({ status: 'failed', nextAttemptAt: null, reason: 'all 10 tries failed; the last: HTTP 500' });
    expect(item!.attempts).toHaveLength(10);
    expect(item!.attempts.every((a: { statusCode: number }) => a.statusCode === 500)).toBe(true);
    const dead = delivery.deadLetter.peek().map((body) => JSON.parse(body));
    expect(dead).toEqual([expect.objectContaining({ eventId: event.id, webhookId: webhook.id, attempt: 10, reason: item!.reason })]);
  });

  it('disables the webhook on 410 Gone and stops trying', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver({ respond: (_, res) => res.writeHead(410).end() });

    await dispatchAndSend(delivery);

    expect(receiver.deliveries).toHaveLength(1);
    expect(await registry.getWebhook(company, webhook.id)).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ status: 'failed', reason: 'webhook disabled: 410 Gone' });
    // A later event is no longer dispatched to it.
    const later = await writeEvent(company);
    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    expect((await eventItem(company, later.id)).dispatchedTo).toEqual([]);
  });

  it('does not disable a webhook pointed elsewhere while the try that met 410 was in flight: the next try goes to the new URL', async () => {
    const moved = await startReceiver();
    let company = '';
    let webhookId = '';
    // The old host, being shut down, answers 410 Gone just after the webhook was pointed at the new one.
    const { company: owner, receiver, webhook, event, delivery } = await subscribedReceiver({
      respond: (_, res) => {
        void (async () => {
          const current = (await registry.getWebhook(company, webhookId))!;
          await registry.replaceWebhook({ ...current, url: moved.url(), updatedAt: new Date().toISOString() });
          res.writeHead(410).end();
        })();
      },
    });
    company = owner;
    webhookId = webhook.id;
    moved.secret = webhook.secret;

    await dispatchAndSend(delivery);

    expect(receiver.deliveries).toHaveLength(1);
    expect(moved.deliveries.map((d) => [d.headers['webhook-id'], d.verifyError])).toEqual([[event.id, null]]);
    expect(await registry.getWebhook(company, webhook.id)).toMatchObject({ enabled: true, disabledReason: null, url: moved.url() });
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ status: 'succeeded' });
  });

  it('honours a Retry-After longer than the scheduled wait', async () => {
    const { company, webhook, event, delivery } = await subscribedReceiver({ respond: (_, res) => res.writeHead(503, { 'Retry-After': '30' }).end() });
    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    const [first] = await delivery.queue.receive(1);

    expect(await sendDelivery({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() }, JSON.parse(first!.body))).toBe('retrying');

    const item = await deliveryItem(company, event.id, webhook.id);
    const waited = Date.parse(item!.nextAttemptAt) - Date.parse(item!.attempts[0].at);
    expect(waited).toBe(30_000);
    const next = JSON.parse(delivery.queue.peek().find((body) => body.includes('"attempt":2'))!);
    expect(next.notBefore).toBe(item!.nextAttemptAt);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    receiver.respond = () => undefined;
    const webhook = await registerWebhook(company, { url: receiver.url() });
    const event = await writeEvent(company);
    const delivery = queues();
    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    const [first] = await delivery.queue.receive(1);

    await sendDelivery({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings({ timeoutMs: 150 }) }, JSON.parse(first!.body));

    const attempt = (await deliveryItem(company, event.id, webhook.id))!.attempts[0];
    expect(attempt).toMatchObject({ statusCode: null, error: 'no answer within 150 ms' });
    expect(Number(attempt.durationMs)).toBeLessThan(1_000);
  });

  it('connects to the address it checked, and re-checks at delivery time (DNS rebinding)', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    // Registered while it looked public; written directly, as registration would have refused it now.
    const { secret, ...good } = { ...(await registerWebhook(company)), url: `http://receiver.test:${receiver.port}/hooks` };
    const { secret: _other, ...rebound } = { ...(await registerWebhook(company)), url: `https://rebound.test:${receiver.port}/hooks` };
    for (const webhook of [good, rebound]) await db.send(new PutCommand({ TableName: tableName, Item: webhookItem.toItem(webhook) }));
    receiver.secret = secret;
    const event = await writeEvent(company);
    const delivery = queues();

    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    await runSender({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings({ retryScheduleMs: [] }) }, delivery.queue);

    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
    expect((await deliveryItem(company, event.id, good.id))!.status).toBe('succeeded');
    const refused = await deliveryItem(company, event.id, rebound.id);
    expect(refused!.status).toBe('failed');
    expect(refused!.attempts[0].error).toBe('url refused: host rebound.test resolves to 10.0.0.7, a private address: only public addresses are allowed');
  });

  it('reaches a host on its next checked address when the first refuses the connection, and never on one it did not check', async () => {
    const receiver = await startReceiver();
    const request = { headers: { 'Content-Type': 'application/json' }, body: '{"a":1}', timeoutMs: 5_000 };
    const url = new URL(`http://receiver.test:${receiver.port}/hooks`);
    // 127.0.0.2 is loopback too, but the receiver listens on 127.0.0.1 alone: that address refuses.
    const refusing = { address: '127.0.0.2', family: 4 as const };
    const listening = { address: '127.0.0.1', family: 4 as const };

    const reached = await postWebhook({ url, addresses: [refusing, listening] }, request);
    const onlyRefusing = await postWebhook({ url, addresses: [refusing] }, request);
    const allRefusing = await postWebhook({ url, addresses: [refusing, { address: '127.0.0.3', family: 4 }] }, request);

    expect(reached).toEqual({ statusCode: 204, retryAfter: null });
    expect(onlyRefusing).toMatchObject({ error: expect.stringContaining('ECONNREFUSED') });
    // Each address's refusal, as the delivery's attempt shows it.
    expect(allRefusing).toEqual({ error: `connect ECONNREFUSED 127.0.0.2:${receiver.port}; connect ECONNREFUSED 127.0.0.3:${receiver.port}` });
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
  });

  it('a failed try SQS hands over twice is made once, and its retries are not forked in two', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver({ respond: (_, res) => res.writeHead(500).end('boom') });
    const deps = { store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() };
    const message = { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 };

    expect(await sendDelivery(deps, message)).toBe('retrying');
    expect(await sendDelivery(deps, message)).toBe('duplicate');

    expect(receiver.deliveries).toHaveLength(1);
    expect(delivery.queue.peek().map((body) => (JSON.parse(body) as DeliveryMessage).attempt)).toEqual([2]);
    expect((await deliveryItem(company, event.id, webhook.id))!.attempts).toHaveLength(1);
  });

  it('a try recorded whose follow-up the queue refused comes back and queues it, without trying again', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver({ respond: (_, res) => res.writeHead(500).end('boom') });
    const refusing = { ...delivery, send: async () => Promise.reject(new Error('SQS unavailable')), sendToDeadLetter: delivery.sendToDeadLetter.bind(delivery) };
    const message = { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 };

    await expect(sendDelivery({ store: deliveries, queue: refusing, sealer, post: postWebhook, settings: settings() }, message)).rejects.toThrow('SQS unavailable');
    expect(await sendDelivery({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() }, message)).toBe('retrying');

    expect(receiver.deliveries).toHaveLength(1);
    expect(delivery.queue.peek().map((body) => (JSON.parse(body) as DeliveryMessage).attempt)).toEqual([2]);
    // Seen a third time, the follow-up is known queued: nothing more.
    expect(await sendDelivery({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() }, message)).toBe('duplicate');
    expect(delivery.queue.peek()).toHaveLength(1);
  });

  it('sends a redelivery (events:redeliver) after a Resend, not taking it for a copy of the resend', async () => {
    const { company, receiver, webhook, event, delivery } = await subscribedReceiver();
    await dispatchAndSend(delivery);
    // Resend, as the dashboard's route takes its round.
    const round = (await new DynamoWebhookEndpointStore(db, tableName).nextDeliveryRound(company, event.id, webhook.id))!;
    await delivery.send([{ message: { companyId: company, eventId: event.id, webhookId: webhook.id, round, attempt: 1 }, delayMs: 0 }]);
    await runSender({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings() }, delivery.queue);
    expect(await dispatch.markForRedelivery(company, new Date(Date.now() - 60_000), null)).toHaveLength(1);
    await dispatchAndSend(delivery);

    expect(receiver.deliveries.map((d) => d.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
  });

  it('a try of an older round still queued when a Resend began a newer one is not made: the endpoint never gets two schedules at once', async () => {
    const { company, receiver, webhook, event, deps, message } = await failingReceiver();

    expect(await sendDelivery(deps, message(0, 1))).toBe('retrying');
    expect(await sendDelivery(deps, message(1, 1))).toBe('retrying');
    // Round 0's second try comes out of the queue after round 1 began.
    expect(await sendDelivery(deps, message(0, 2))).toBe('duplicate');

    expect(receiver.deliveries).toHaveLength(2);
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ round: 1, lastAttempt: 1, status: 'retrying' });
  });

  it("a later round's try whose follow-up the queue refused comes back and queues it, though an earlier round had queued more", async () => {
    const { receiver, delivery, deps, message } = await failingReceiver();
    expect(await sendDelivery(deps, message(0, 1))).toBe('retrying');
    expect(await sendDelivery(deps, message(0, 2))).toBe('retrying');

    const refusing = { ...delivery, send: async () => Promise.reject(new Error('SQS unavailable')), sendToDeadLetter: delivery.sendToDeadLetter.bind(delivery) };
    await expect(sendDelivery({ ...deps, queue: refusing }, message(1, 1))).rejects.toThrow('SQS unavailable');
    expect(await sendDelivery(deps, message(1, 1))).toBe('retrying');

    expect(receiver.deliveries).toHaveLength(3);
    const queued = delivery.queue.peek().map((body) => JSON.parse(body) as DeliveryMessage).map(({ round, attempt }) => ({ round, attempt }));
    expect(queued.filter(({ round }) => round === 1)).toEqual([{ round: 1, attempt: 2 }]);
  });

  it('a last try whose dead letter the queue refused comes back and sends it, and its alert, once; a copy seen again sends neither', async () => {
    const { receiver, delivery, deps, message } = await failingReceiver();
    const alerts: string[] = [];
    const alert: SenderDeps['alert'] = async (failure) => void alerts.push(failure.reason);
    const last = message(0, 10);
    const refusing = { ...delivery, send: delivery.send.bind(delivery), sendToDeadLetter: async () => Promise.reject(new Error('SQS unavailable')) };
    await expect(sendDelivery({ ...deps, queue: refusing, alert }, last)).rejects.toThrow('SQS unavailable');

    expect(await sendDelivery({ ...deps, alert }, last)).toBe('dead-lettered');
    expect(await sendDelivery({ ...deps, alert }, last)).toBe('duplicate');

    // Tried once: the failure was recorded before the dead letter.
    expect(receiver.deliveries).toHaveLength(1);
    expect(delivery.deadLetter.peek().map((body) => JSON.parse(body) as DeliveryMessage)).toEqual([expect.objectContaining({ attempt: 10, reason: 'all 10 tries failed; the last: HTTP 500' })]);
    expect(alerts).toEqual(['all 10 tries failed; the last: HTTP 500']);
  });

  it('a copy of a last try that met 410, seen after the endpoint was enabled again, is not given up a second time', async () => {
    const { company, webhook, delivery, deps, message } = await (async () => {
      const subscribed = await subscribedReceiver({ respond: (_, res) => res.writeHead(410).end() });
      const deps = { store: deliveries, queue: subscribed.delivery, sealer, post: postWebhook, settings: settings() };
      return { ...subscribed, deps, message: { companyId: subscribed.company, eventId: subscribed.event.id, webhookId: subscribed.webhook.id, round: 0, attempt: 10 } };
    })();
    expect(await sendDelivery(deps, message)).toBe('disabled');
    const stored = (await registry.getWebhook(company, webhook.id))!;
    await registry.replaceWebhook({ ...stored, enabled: true, disabledReason: null });

    expect(await sendDelivery(deps, message)).toBe('duplicate');
    expect(delivery.deadLetter.peek()).toEqual([]);
  });

  it('drops a duplicate of a delivery that already succeeded, and cancels deliveries to a deleted webhook', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const webhook = await registerWebhook(company, { url: receiver.url() });
    const gone = await registerWebhook(company, { url: receiver.url() });
    receiver.secret = webhook.secret;
    const event = await writeEvent(company);
    const deps = { store: deliveries, queue: queues(), sealer, post: postWebhook, settings: settings() };
    const message = { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 };
    await registry.deleteWebhook(company, gone.id);

    expect(await sendDelivery(deps, message)).toBe('succeeded');
    expect(await sendDelivery(deps, message)).toBe('duplicate');
    expect(await sendDelivery(deps, { ...message, webhookId: gone.id })).toBe('cancelled');

    expect(receiver.deliveries).toHaveLength(1);
    expect(await deliveryItem(company, event.id, gone.id)).toMatchObject({ status: 'cancelled', reason: 'webhook deleted' });
    // A late copy of the delivery that succeeded, once its webhook is deleted too, leaves it succeeded.
    await registry.deleteWebhook(company, webhook.id);
    expect(await sendDelivery(deps, message)).toBe('duplicate');
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ status: 'succeeded' });
  });
});

describe('an endpoint that gives up on an event', () => {
  const outboxes: string[] = [];
  afterAll(() => outboxes.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A company with a profile and a member of each role but Admin, whose mail goes to an outbox of
   * the test's own (through `mailing`, where a test makes it fail). */
  async function companyWithPeople(mailing: (outbox: Mailer) => Mailer = (outbox) => outbox) {
    const company = companyId();
    await db.send(new PutCommand({ TableName: tableName, Item: companyItem.toItem({ id: company, name: 'Alerted Co', environment: 'sandbox', status: 'active', createdAt: new Date().toISOString() }) }));
    const people = { Owner: `owner-${company}@example.com`, Developer: `dev-${company}@example.com`, Viewer: `viewer-${company}@example.com` };
    for (const [role, email] of Object.entries(people)) {
      await db.send(new PutCommand({ TableName: tableName, Item: membershipItem.toItem({ companyId: company, personId: newId('event'), email, role: role as Role, createdAt: new Date().toISOString() }) }));
    }
    const outbox = mkdtempSync(join(tmpdir(), 'cambio-alerts-'));
    outboxes.push(outbox);
    const mailer = mailing(new OutboxMailer(outbox));
    const alerting = { alerts: new DynamoWebhookAlertStore(db, tableName), companies: new DynamoCompanyStore(db, tableName), mailer };
    const alert: SenderDeps['alert'] = (failure, log) => alertGivenUpDelivery({ ...alerting, log }, failure);
    return { company, people, outbox, alert };
  }

  async function failingEndpoint(company: string, respond: WebhookReceiver['respond']) {
    const receiver = await startReceiver();
    receiver.respond = respond;
    const webhook = await registerWebhook(company, { url: receiver.url() });
    receiver.secret = webhook.secret;
    return webhook;
  }

  const sendAll = async (alert: SenderDeps['alert']) => {
    const delivery = queues();
    await dispatchUndispatched({ store: dispatch, queue: delivery }, { minAgeMs: 0 });
    await runSender({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings(), alert }, delivery.queue);
  };

  it('mails the Owner and the Developer, not the Viewer, once a day per endpoint, naming the event and why', async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end('boom'));
    const event = await writeEvent(company);

    await sendAll(alert);

    for (const to of [people.Owner, people.Developer]) {
      const [mail, ...more] = mailsTo(outbox, to);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe(`Webhook deliveries failing: ${webhook.url}`);
      expect(mail!.text).toContain(`Cambio could not deliver event ${event.id} (${event.type}) to Alerted Co's webhook endpoint ${webhook.url}: all 10 tries failed; the last: HTTP 500.`);
    }
    expect(mailsTo(outbox, people.Viewer)).toEqual([]);

    // Another event given up within the day: no second mail about this endpoint; another endpoint gets its own.
    await writeEvent(company);
    const other = await failingEndpoint(company, (_, res) => res.writeHead(503).end());
    await sendAll(alert);
    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`, `Webhook deliveries failing: ${other.url}`]);
  });

  it('mails once, while still retrying, when an endpoint has failed an event for an hour: the fifth try of the contract schedule', async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end('down'));
    const event = await writeEvent(company);
    const contract = settings({ retryScheduleMs: parseRetrySchedule(CONTRACT_RETRY_SCHEDULE) });
    const send = (attempt: number) => sendDelivery({ store: deliveries, queue: queues(), sealer, post: postWebhook, settings: contract, alert }, { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt });

    // Tries 1 to 4 fail within 35 minutes of the first: nobody is mailed yet.
    for (const attempt of [1, 2, 3, 4]) expect(await send(attempt)).toBe('retrying');
    expect(mailsTo(outbox, people.Owner)).toEqual([]);
    const at = Date.now();
    expect(await send(5)).toBe('retrying');
    const [mail, ...more] = mailsTo(outbox, people.Owner);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Webhook deliveries failing: ${webhook.url}`);
    expect(mail!.text).toContain(`Cambio could not deliver event ${event.id} (${event.type}) to Alerted Co's webhook endpoint ${webhook.url}: its 5 tries so far failed; the last: HTTP 500.`);
    const [, next, last] = /the next try at (\S+), the last about (\S+)\. /.exec(mail!.text)!;
    // The fifth wait (5 h, ±10 % jitter), then the rest of the schedule (5+10+14+20+24 h = 73 h).
    expect(Date.parse(next!) - at).toBeGreaterThan(4.4 * 3600_000);
    expect(Date.parse(last!) - at).toBeGreaterThanOrEqual(73 * 3600_000);
    expect(Date.parse(last!) - at).toBeLessThan(73 * 3600_000 + 60_000);
    expect(mailsTo(outbox, people.Developer)).toHaveLength(1);
    // Later tries of the same day: no more mail.
    expect(await send(6)).toBe('retrying');
    expect(mailsTo(outbox, people.Owner)).toHaveLength(1);
  });

  it('mails that the endpoint was disabled when it answered 410 Gone', async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(410).end());
    await writeEvent(company);

    await sendAll(alert);

    const [mail] = mailsTo(outbox, people.Owner);
    expect(mail!.subject).toBe(`Webhook endpoint disabled: ${webhook.url}`);
    expect(mail!.text).toContain('no event is sent to it until it is enabled again');
  });

  /** The message of the first try of `event` to `webhook`, and the sender's deps with this test's alert. */
  const firstTry = (company: string, webhook: { id: string }, event: { id: string }, overrides: Partial<SenderDeps> & Pick<SenderDeps, 'alert'>) => ({
    message: { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 },
    deps: { store: deliveries, queue: queues(), sealer, post: postWebhook, settings: settings(), ...overrides },
  });
  const attemptsShown = async (company: string, webhookId: string) => (await new DynamoWebhookEndpointStore(db, tableName).attemptsOf(company, webhookId, { limit: 25 })).records;

  it('records the 410 and mails that the endpoint was disabled though the write recording the try failed once and the message came back', async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(410).end());
    const event = await writeEvent(company);
    // The write that records the try fails once (a transaction conflict with a copy of the message,
    // DynamoDB throttling): the message is received again.
    const store = Object.create(deliveries) as DynamoDeliveryStore;
    let failed = false;
    store.record = async (message, update, at) => {
      if (update.attempt && !failed) {
        failed = true;
        throw new TransactionCanceledException({ message: 'Transaction cancelled [None, TransactionConflict]', $metadata: {}, CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }] });
      }
      return deliveries.record(message, update, at);
    };
    const { message, deps } = firstTry(company, webhook, event, { store, alert });

    await expect(sendDelivery(deps, message)).rejects.toThrow(TransactionCanceledException);
    expect(await sendDelivery(deps, message)).toBe('disabled');
    // SQS hands over one more copy later: it changes nothing.
    expect(await sendDelivery(deps, message)).toBe('duplicate');

    expect(await attemptsShown(company, webhook.id)).toEqual([expect.objectContaining({ eventId: event.id, httpStatus: 410, result: 'failed' })]);
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ status: 'failed', reason: 'webhook disabled: 410 Gone' });
    expect(await registry.getWebhook(company, webhook.id)).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    for (const to of [people.Owner, people.Developer]) expect(mailsTo(outbox, to).map((mail) => mail.subject)).toEqual([`Webhook endpoint disabled: ${webhook.url}`]);
  });

  it('mails that the endpoint was disabled when the sender died between recording the 410 and its alert, without trying again', async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(410).end());
    const event = await writeEvent(company);
    let died = false;
    const dying: SenderDeps['alert'] = async (failure, log) => {
      if (died) return alert!(failure, log);
      died = true;
      throw new Error('Runtime exited');
    };
    let posts = 0;
    const { message, deps } = firstTry(company, webhook, event, { alert: dying, post: (target, request) => (posts++, postWebhook(target, request)) });

    await expect(sendDelivery(deps, message)).rejects.toThrow('Runtime exited');
    expect(await sendDelivery(deps, message)).toBe('disabled');
    expect(await sendDelivery(deps, message)).toBe('duplicate');

    expect(posts).toBe(1);
    expect(await attemptsShown(company, webhook.id)).toEqual([expect.objectContaining({ eventId: event.id, httpStatus: 410, result: 'failed' })]);
    expect(await deliveryItem(company, event.id, webhook.id)).toMatchObject({ status: 'failed', reason: 'webhook disabled: 410 Gone' });
    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook endpoint disabled: ${webhook.url}`]);
  });

  /** The sender dies in its first mail, after the mail's claim (the Lambda timed out, or was
   * stopped): that send never returns. `reached` resolves when it is made. */
  function dyingInFirstMail() {
    let reachedIt!: () => void;
    const reached = new Promise<void>((resolve) => (reachedIt = resolve));
    let sent = 0;
    const mailing = (outbox: Mailer): Mailer => ({ send: (mail) => (sent++ === 0 ? (reachedIt(), new Promise<void>(() => undefined)) : outbox.send(mail)) });
    return { reached, mailing };
  }

  /** SES refuses the first mail (throttled), after the mail's claim. */
  const failingFirstMail = (outbox: Mailer): Mailer => {
    let sent = 0;
    return {
      send: async (mail) => {
        if (sent++ === 0) throw Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'Throttling' });
        return outbox.send(mail);
      },
    };
  };

  it('mails that the endpoint was disabled when the sender died after claiming the mail and before sending it', async () => {
    const { reached, mailing } = dyingInFirstMail();
    const { company, people, outbox, alert } = await companyWithPeople(mailing);
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(410).end());
    const event = await writeEvent(company);
    const { message, deps } = firstTry(company, webhook, event, { alert });

    // This run never ends: SQS shows the message again once its visibility timeout is over.
    void sendDelivery(deps, message);
    await reached;
    expect(await sendDelivery(deps, message)).toBe('disabled');
    expect(await sendDelivery(deps, message)).toBe('duplicate');

    for (const to of [people.Owner, people.Developer]) expect(mailsTo(outbox, to).map((mail) => mail.subject)).toEqual([`Webhook endpoint disabled: ${webhook.url}`]);
  });

  it('mails that the endpoint was disabled when the mail failed after its claim: the message comes back and mails it once', async () => {
    const { company, people, outbox, alert } = await companyWithPeople(failingFirstMail);
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(410).end());
    const event = await writeEvent(company);
    const { message, deps } = firstTry(company, webhook, event, { alert });

    await expect(sendDelivery(deps, message)).rejects.toThrow('Maximum sending rate exceeded.');
    expect(await sendDelivery(deps, message)).toBe('disabled');
    expect(await sendDelivery(deps, message)).toBe('duplicate');

    expect(await registry.getWebhook(company, webhook.id)).toMatchObject({ enabled: false });
    for (const to of [people.Owner, people.Developer]) expect(mailsTo(outbox, to).map((mail) => mail.subject)).toEqual([`Webhook endpoint disabled: ${webhook.url}`]);
  });

  /** An event's last try, to an endpoint answering 500, its managers mailed through `mailing`. */
  async function lastTryFailing(mailing: (outbox: Mailer) => Mailer) {
    const { company, people, outbox, alert } = await companyWithPeople(mailing);
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end());
    const event = await writeEvent(company);
    const queue = queues();
    const { message, deps } = firstTry(company, webhook, event, { alert, queue });
    return { people, outbox, webhook, queue, deps, lastTry: { ...message, attempt: 10 } };
  }

  it('mails that the endpoint gave up on an event when the mail failed after its claim: the message comes back and mails it once', async () => {
    const { people, outbox, webhook, queue, deps, lastTry } = await lastTryFailing(failingFirstMail);

    await expect(sendDelivery(deps, lastTry)).rejects.toThrow('Maximum sending rate exceeded.');
    expect(await sendDelivery(deps, lastTry)).toBe('dead-lettered');
    expect(await sendDelivery(deps, lastTry)).toBe('duplicate');

    expect(queue.deadLetter.peek().length).toBeGreaterThan(0);
    for (const to of [people.Owner, people.Developer]) expect(mailsTo(outbox, to).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`]);
  });

  it('mails the managers SES takes once when it refuses one of them for good (an unverified address): no retry mails the others again', async () => {
    // SES refuses the Developer's address every time (a stage in SES's sandbox, say).
    const refusingDevelopers = (outbox: Mailer): Mailer => ({
      send: async (mail) => {
        if (mail.to.startsWith('dev-')) throw Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
        return outbox.send(mail);
      },
    });
    const { people, outbox, webhook, queue, deps, lastTry } = await lastTryFailing(refusingDevelopers);

    expect(await sendDelivery(deps, lastTry)).toBe('dead-lettered');
    expect(await sendDelivery(deps, lastTry)).toBe('duplicate');

    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`]);
    expect(mailsTo(outbox, people.Developer)).toEqual([]);
    expect(queue.deadLetter.peek()).toHaveLength(1);
  });

  it('mails, still retrying, that the endpoint has failed for an hour when the sender died in that mail after queueing the next try', async () => {
    const { reached, mailing } = dyingInFirstMail();
    const { company, people, outbox, alert } = await companyWithPeople(mailing);
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end('down'));
    const event = await writeEvent(company);
    const contract = settings({ retryScheduleMs: parseRetrySchedule(CONTRACT_RETRY_SCHEDULE) });
    const deps = { store: deliveries, queue: queues(), sealer, post: postWebhook, settings: contract, alert };
    const send = (attempt: number) => sendDelivery(deps, { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt });
    for (const attempt of [1, 2, 3, 4]) expect(await send(attempt)).toBe('retrying');

    // The fifth try crosses the hour: its run dies in the mail, and its message comes back.
    void send(5);
    await reached;
    expect(await send(5)).toBe('retrying');
    expect(await send(5)).toBe('duplicate');

    for (const to of [people.Owner, people.Developer]) {
      const [mail, ...more] = mailsTo(outbox, to);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe(`Webhook deliveries failing: ${webhook.url}`);
      expect(mail!.text).toContain(`Cambio could not deliver event ${event.id} (${event.type}) to Alerted Co's webhook endpoint ${webhook.url}: its 5 tries so far failed.`);
    }
  });

  it('mails once when two events give up on one endpoint at once, the second while the first one\'s mail is being sent', async () => {
    let letFirstMailGo!: () => void;
    const firstMailHeld = new Promise<void>((resolve) => (letFirstMailGo = resolve));
    let reachedFirstMail!: () => void;
    const reached = new Promise<void>((resolve) => (reachedFirstMail = resolve));
    let sent = 0;
    const holdingFirstMail = (outbox: Mailer): Mailer => ({
      send: async (mail) => {
        if (sent++ === 0) {
          reachedFirstMail();
          await firstMailHeld;
        }
        return outbox.send(mail);
      },
    });
    const { company, people, outbox, alert } = await companyWithPeople(holdingFirstMail);
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end());
    const [first, second] = [await writeEvent(company), await writeEvent(company)];
    const lastTryOf = (event: { id: string }) => {
      const { message, deps } = firstTry(company, webhook, event, { alert });
      return sendDelivery(deps, { ...message, attempt: 10 });
    };

    const firstGivenUp = lastTryOf(first);
    await reached;
    expect(await lastTryOf(second)).toBe('dead-lettered');
    letFirstMailGo();
    expect(await firstGivenUp).toBe('dead-lettered');

    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`]);
    expect(mailsTo(outbox, people.Developer)).toHaveLength(1);
  });

  it("mails that the endpoint was disabled even after the day's mail that it was failing", async () => {
    const { company, people, outbox, alert } = await companyWithPeople();
    let gone = false;
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(gone ? 410 : 500).end());
    const event = await writeEvent(company);
    const contract = settings({ retryScheduleMs: parseRetrySchedule(CONTRACT_RETRY_SCHEDULE) });
    const send = (attempt: number) => sendDelivery({ store: deliveries, queue: queues(), sealer, post: postWebhook, settings: contract, alert }, { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt });
    // Failing for an hour: mailed that it is failing.
    for (const attempt of [1, 2, 3, 4, 5]) expect(await send(attempt)).toBe('retrying');
    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`]);

    // The same day it answers 410 Gone and is disabled: mailed that too, once.
    gone = true;
    await send(6);
    expect(mailsTo(outbox, people.Owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`, `Webhook endpoint disabled: ${webhook.url}`]);
    expect(mailsTo(outbox, people.Developer)).toHaveLength(2);
  });

  it('gives the delivery up all the same when the alert cannot be mailed', async () => {
    const company = companyId();
    const webhook = await failingEndpoint(company, (_, res) => res.writeHead(500).end());
    const event = await writeEvent(company);
    const delivery = queues();
    // No company profile: the alert fails to find it, and only logs.
    const alert: SenderDeps['alert'] = (failure, log) => alertGivenUpDelivery({ alerts: new DynamoWebhookAlertStore(db, tableName), companies: new DynamoCompanyStore(db, tableName), mailer: new OutboxMailer(tmpdir()), log }, failure);
    const logged: string[] = [];
    const log = { warn: () => undefined, error: (message: string) => void logged.push(message) };

    expect(await sendDelivery({ store: deliveries, queue: delivery, sealer, post: postWebhook, settings: settings(), alert, log }, { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 10 })).toBe('dead-lettered');
    expect(logged).toEqual(['webhook failure alert not mailed']);
    expect(delivery.deadLetter.peek()).toHaveLength(1);
  });
});

describe('a dashboard edit that keeps the switch', () => {
  it('does not turn back on an endpoint a 410 disabled while the edit checked its URL', async () => {
    const company = companyId();
    const { secret: _secret, ...webhook } = await registerWebhook(company);
    // The sender meets a 410 at the old URL while the edit resolves the new one's host.
    const racing: Resolver = async (hostname) => {
      // The sender's write: the try recorded, the webhook disabled with it.
      const message = { companyId: company, eventId: newId('event'), webhookId: webhook.id, round: 0, attempt: 1 };
      const attempt = { round: 0, attempt: 1, at: new Date().toISOString(), url: webhook.url, statusCode: 410, durationMs: 3, error: null };
      const disableWebhook = { url: webhook.url, reason: 'the endpoint answered 410 Gone' };
      await deliveries.record(message, { eventType: 'deposit.completed', status: 'failed', attempt, nextAttemptAt: null, reason: 'webhook disabled: 410 Gone', disableWebhook }, new Date());
      return resolve(hostname);
    };
    const edit = { url: 'http://receiver.test/hooks', events: ['*'] as ['*'], description: 'moved' };

    const edited = await changeWebhook(registry, { policy: { allowLoopbackHttp: true }, resolve: racing }, company, webhook.id, edit);

    expect(edited).toMatchObject({ ...edit, enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    expect(await registry.getWebhook(company, webhook.id)).toMatchObject({ ...edit, enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
  });
});

describe('a dashboard edit built on an earlier read', () => {
  it("does not put back a colleague's URL and events that landed between its read and its write: it applies its own change to theirs", async () => {
    const company = companyId();
    const { secret: _secret, ...webhook } = await registerWebhook(company);
    const racing = Object.create(registry) as DynamoWebhookRegistry;
    let colleague = false;
    racing.replaceWebhook = async (replaced, audit, asRead) => {
      if (!colleague) {
        colleague = true;
        // A colleague's Edit lands first (its own read, its own write).
        await changeWebhook(registry, { policy: { allowLoopbackHttp: true }, resolve }, company, webhook.id, { url: 'http://receiver.test/moved', events: ['withdrawal.completed'] });
      }
      return registry.replaceWebhook(replaced, audit, asRead);
    };

    const renamed = await changeWebhook(racing, { policy: { allowLoopbackHttp: true }, resolve }, company, webhook.id, { description: 'renamed' });

    const expected = { url: 'http://receiver.test/moved', events: ['withdrawal.completed'], description: 'renamed' };
    expect(renamed).toMatchObject(expected);
    expect(await registry.getWebhook(company, webhook.id)).toMatchObject(expected);
  });
});

describe('a rolled secret', () => {
  it('is not undone by an edit that read the webhook before the roll: the edit lands on the new secret, which signs', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const { secret: _first, ...webhook } = await registerWebhook(company, { url: receiver.url() });
    const newSecret = newWebhookSecret();
    const newSealed = await sealer.seal(newSecret, signingContext(webhook));
    // A person's Roll secret lands between the edit's read and its write.
    const racing = Object.create(registry) as DynamoWebhookRegistry;
    let rolled = false;
    racing.replaceWebhook = async (replaced, audit, asRead) => {
      if (!rolled) {
        rolled = true;
        await db.send(new PutCommand({ TableName: tableName, Item: webhookItem.toItem({ ...webhook, sealedSecret: newSealed, previousSealedSecret: webhook.sealedSecret, updatedAt: new Date().toISOString() }) }));
      }
      return registry.replaceWebhook(replaced, audit, asRead);
    };

    await replaceWebhook(racing, { policy: { allowLoopbackHttp: true }, resolve }, company, webhook.id, { url: receiver.url('/edited'), events: ['*'], description: 'edited' });

    const stored = (await registry.getWebhook(company, webhook.id))!;
    expect(stored).toMatchObject({ url: receiver.url('/edited'), description: 'edited', sealedSecret: newSealed, previousSealedSecret: webhook.sealedSecret });
    receiver.secret = newSecret;
    await writeEvent(company);
    await dispatchAndSend(queues());
    expect(receiver.deliveries.map((delivery) => delivery.verifyError)).toEqual([null]);
  });

  it('signs beside the new secret until its expiry, then no more: two v1 signatures, the new first, then one', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const old = await registerWebhook(company, { url: receiver.url() });
    const newSecret = newWebhookSecret();
    const now = Date.now();
    const rolled: Webhook = {
      ...old,
      sealedSecret: await sealer.seal(newSecret, signingContext(old)),
      previousSealedSecret: old.sealedSecret,
      previousSecretExpiresAt: new Date(now + 24 * 3600 * 1000).toISOString(),
    };
    await db.send(new PutCommand({ TableName: tableName, Item: webhookItem.toItem(rolled) }));
    const deps = (at: number) => ({ store: deliveries, queue: queues(), sealer, post: postWebhook, settings: settings(), now: () => new Date(at) });

    const during = await writeEvent(company);
    expect(await sendDelivery(deps(now + 23 * 3600 * 1000), { companyId: company, eventId: during.id, webhookId: old.id, round: 0, attempt: 1 })).toBe('succeeded');
    const after = await writeEvent(company);
    expect(await sendDelivery(deps(now + 25 * 3600 * 1000), { companyId: company, eventId: after.id, webhookId: old.id, round: 0, attempt: 1 })).toBe('succeeded');

    const [first, second] = receiver.deliveries;
    const signatures = (d: typeof first) => String(d!.headers['webhook-signature']).split(' ');
    const expected = (secret: string, d: typeof first) => signWebhook(secret, String(d!.headers['webhook-id']), Number(d!.headers['webhook-timestamp']), d!.body);
    expect(signatures(first)).toEqual([expected(newSecret, first), expected(old.secret, first)]);
    expect(signatures(second)).toEqual([expected(newSecret, second)]);
  });
});

describe('sealed secrets', () => {
  it('stores the secret sealed: the webhook item holds neither the secret nor its key bytes', async () => {
    const company = companyId();
    const webhook = await registerWebhook(company);

    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: webhookItem.key(company, webhook.id), ConsistentRead: true }));

    expect(Item!.secret).toBeUndefined();
    expect(Item!.sealedSecret).toMatch(/^local:[A-Za-z0-9+/]+=*$/);
    const stored = JSON.stringify(Item);
    expect(stored).not.toContain(webhook.secret);
    expect(stored).not.toContain(webhook.secret.slice('whsec_'.length));
  });

  it('still signs with a secret stored in the clear before sealing (a legacy `secret` attribute), and a PUT keeps it where it was', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const { secret, sealedSecret: _sealed, ...webhook } = await registerWebhook(company, { url: receiver.url() });
    await db.send(
      new PutCommand({ TableName: tableName, Item: { ...webhookItem.key(company, webhook.id), type: 'Webhook', ...webhook, secret } }),
    );
    receiver.secret = secret;
    const event = await writeEvent(company);
    const delivery = queues();

    await dispatchAndSend(delivery);
    await registry.replaceWebhook({ ...(await registry.getWebhook(company, webhook.id))!, description: 'renamed' });

    expect(receiver.deliveries.map((d) => [d.headers['webhook-id'], d.verifyError])).toEqual([[event.id, null]]);
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: webhookItem.key(company, webhook.id), ConsistentRead: true }));
    expect(Item).toMatchObject({ secret, description: 'renamed' });
    expect(Item!.sealedSecret).toBeUndefined();
  });

  it('webhooks:seal-secrets seals secrets stored in the clear in place, once, and deliveries still verify with the same secret', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const { secret, sealedSecret: _sealed, ...webhook } = await registerWebhook(company, { url: receiver.url() });
    await db.send(new PutCommand({ TableName: tableName, Item: { ...webhookItem.key(company, webhook.id), type: 'Webhook', ...webhook, secret } }));

    const first = await sealPlainSecrets(registry, sealer);
    const second = await sealPlainSecrets(registry, sealer);

    expect(first.sealed).toContain(webhook.id);
    expect(second.sealed).not.toContain(webhook.id);
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: webhookItem.key(company, webhook.id), ConsistentRead: true }));
    expect(Item!.secret).toBeUndefined();
    expect(Item!.sealedSecret).toMatch(/^local:/);
    expect(JSON.stringify(Item)).not.toContain(secret.slice('whsec_'.length));
    receiver.secret = secret;
    const event = await writeEvent(company);
    await sendDelivery(
      { store: deliveries, queue: queues(), sealer, post: postWebhook, settings: settings() },
      { companyId: company, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 },
    );
    expect(receiver.deliveries.map((d) => d.verifyError)).toEqual([null]);
  });

  it('does not sign with a sealed secret copied from another webhook: the try throws (the message comes back) and nothing is sent', async () => {
    const company = companyId();
    const receiver = await startReceiver();
    const victim = await registerWebhook(company, { url: receiver.url() });
    const { secret: _own, ...attacker } = await registerWebhook(company, { url: receiver.url() });
    await db.send(new PutCommand({ TableName: tableName, Item: webhookItem.toItem({ ...attacker, sealedSecret: victim.sealedSecret }) }));
    const event = await writeEvent(company);
    const message = { companyId: company, eventId: event.id, webhookId: attacker.id, round: 0, attempt: 1 };

    await expect(sendDelivery({ store: deliveries, queue: queues(), sealer, post: postWebhook, settings: settings() }, message)).rejects.toThrow(
      'does not open for this webhook',
    );
    expect(receiver.deliveries).toHaveLength(0);
  });
});

describe('the in-process queue', () => {
  it('shows an undeleted message again after its visibility timeout and moves it to the dead-letter queue after maxReceiveCount receives', async () => {
    const deadLetter = new InProcessQueue({ visibilityTimeoutMs: 1_000 });
    const queue = new InProcessQueue({ visibilityTimeoutMs: 5, maxReceiveCount: 3, deadLetter });
    await queue.send('poison', 0);
    await queue.send('later', 60_000);

    const counts: number[] = [];
    for (let i = 0; i < 5; i++) {
      for (const message of await queue.receive(10)) counts.push(message.receiveCount);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    expect(counts).toEqual([1, 2, 3]);
    expect(deadLetter.peek()).toEqual(['poison']);
    expect(queue.peek()).toEqual(['later']);
  });
});

describe('the in-process queue with a journal (the local runtime\'s)', () => {
  it('hands a restarted process what was sent and not deleted, received or not, with its receive count', async () => {
    const name = `journal-${newId('event')}`;
    const before = new InProcessQueue({ visibilityTimeoutMs: 60_000, journal: new DynamoQueueJournal(db, tableName, name) });
    await before.send('acked');
    await before.send('in flight');
    await before.send('waiting', 60_000);
    const [acked, inFlight] = await before.receive(2);
    await before.delete(acked!.receiptHandle);

    // A new queue over the same journal: the process after a kill -9.
    const after = new InProcessQueue({ visibilityTimeoutMs: 60_000, journal: new DynamoQueueJournal(db, tableName, name) });
    const received = await after.receive(10);

    expect(inFlight!.body).toBe('in flight');
    // Visible at once (its consumer died), its receive count kept; the delayed one still waits.
    expect(received.map(({ body, receiveCount }) => ({ body, receiveCount }))).toEqual([{ body: 'in flight', receiveCount: 2 }]);
    expect(after.peek().sort()).toEqual(['in flight', 'waiting']);
    await after.delete(received[0]!.receiptHandle);
    const third = new InProcessQueue({ visibilityTimeoutMs: 60_000, journal: new DynamoQueueJournal(db, tableName, name) });
    await third.receive(10);
    expect(third.peek()).toEqual(['waiting']);
  });
});
