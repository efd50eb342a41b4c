import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { domainEvent, type DomainEvent } from '#functions/shared/events';
import { newId } from '#functions/shared/ids';
import type { LocalRuntime } from '#local/runtime';
import { newCompany, startTestApi } from '../support/local-api.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Issue #12: one company's endpoint that never answers delayed another company's deliveries by
 * the whole timeout (a 5 s retry came after 15 s), because the sender waited for the slowest
 * delivery of a batch before taking the next. Here the timeout is 15 s and the retry 300 ms: the
 * healthy company's tries must all land within a fraction of the timeout.
 */
const TIMEOUT_MS = 15_000;
const RETRY_MS = 300;
/** Far below the timeout, far above the retry and the loops' 50 ms: a loaded 2-core CI run took
 * 5.4 s for a retry that a quiet machine sends in under 1 s. */
const PROMPT_MS = 7_000;

let runtime: LocalRuntime;
let db: ReturnType<typeof createDocumentClient>;
const hanging = new WebhookReceiver();
const healthy = new WebhookReceiver();
let hangingCompany: string;
let healthyCompany: string;
const held: ServerResponse[] = [];

beforeAll(async () => {
  runtime = await startTestApi({
    environment: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: `${RETRY_MS}ms,${RETRY_MS}ms,${RETRY_MS}ms` },
    webhookIntervalMs: 50,
  });
  db = createDocumentClient(runtime.dynamoEndpoint);
  await hanging.start();
  await healthy.start();
  // Never answers while the test runs.
  hanging.respond = (_, res) => void held.push(res);
  // Fails every first try of an event, then accepts: each event makes a retry.
  healthy.respond = (delivery, res) => {
    const tries = healthy.deliveries.filter((other) => other.headers['webhook-id'] === delivery.headers['webhook-id']).length;
    res.writeHead(tries === 1 ? 500 : 204).end();
  };
  for (const [receiver, name] of [[hanging, 'Hanging Co'], [healthy, 'Healthy Co']] as const) {
    const company = await newCompany(runtime, name);
    const registered = await company.call('POST', '/webhooks', { body: { url: receiver.url(), events: ['*'] } });
    expect(registered.status).toBe(201);
    receiver.secret = registered.body.data.secret;
    if (receiver === hanging) hangingCompany = company.companyId;
    else healthyCompany = company.companyId;
  }
});

afterAll(async () => {
  // Closing the hanging endpoint ends its tries, so the runtime stops without waiting them out.
  await hanging.stop();
  await runtime?.stop();
  await healthy.stop();
});

/** Events committed in one transaction, so the dispatcher's next pass queues them together. */
async function writeEvents(...companyIds: string[]): Promise<DomainEvent[]> {
  const events = companyIds.map((companyId) =>
    domainEvent(companyId, 'deposit.completed', { id: newId('deposit'), status: 'completed', updatedAt: new Date().toISOString() }, new Date()),
  );
  const transaction = new MoneyTransaction(runtime.tableName);
  for (const event of events) transaction.event(event);
  await transaction.commit(db);
  return events;
}

const triesOf = (receiver: WebhookReceiver, event: DomainEvent) => receiver.deliveries.filter((delivery) => delivery.headers['webhook-id'] === event.id);

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a hanging webhook endpoint beside a healthy one', () => {
  it('does not delay the other company’s deliveries while its own try is in flight', async () => {
    const [stuck] = await writeEvents(hangingCompany);
    await until(() => triesOf(hanging, stuck!).length === 1, PROMPT_MS);
    expect(triesOf(hanging, stuck!), 'the hanging endpoint was never tried').toHaveLength(1);

    const started = Date.now();
    const [event] = await writeEvents(healthyCompany);
    await until(() => triesOf(healthy, event!).length === 2, TIMEOUT_MS + 2_000);

    const tries = triesOf(healthy, event!);
    expect(tries.map((delivery) => delivery.receivedAt - started).every((ms) => ms < PROMPT_MS), `tries after ${tries.map((d) => d.receivedAt - started)} ms`).toBe(true);
    expect(tries).toHaveLength(2);
    expect(tries.map((delivery) => delivery.verifyError)).toEqual([null, null]);
  });

  it('does not delay the retry of a delivery that shared its batch', async () => {
    const started = Date.now();
    const [stuck, event] = await writeEvents(hangingCompany, healthyCompany);
    await until(() => triesOf(healthy, event!).length === 2, TIMEOUT_MS + 2_000);

    expect(triesOf(hanging, stuck!)).toHaveLength(1);
    const tries = triesOf(healthy, event!);
    expect(tries).toHaveLength(2);
    // The retry came after its 300 ms wait, not after the hanging try's 15 s timeout.
    expect(tries[1]!.receivedAt - started, `the retry came after ${tries[1]!.receivedAt - started} ms`).toBeLessThan(PROMPT_MS);
    expect(tries[1]!.verifyError).toBeNull();
  });

  it('sends the hanging endpoint one try at a time: a try still in flight is not received again', async () => {
    // Both events' first tries are still held: neither was shown to the sender a second time.
    expect(held.length).toBe(2);
    expect(new Set(hanging.deliveries.map((delivery) => delivery.headers['webhook-id'])).size).toBe(2);
  });
});
