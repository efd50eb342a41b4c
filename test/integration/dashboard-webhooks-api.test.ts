import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import type { LocalRuntime } from '#local/runtime';
import { verifyWebhook } from '../../clients/node/src/index.ts';
import { startTestApi } from '../support/local-api.ts';
import { dashboardBrowser, invitationTokenMailedTo, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { verifiesWith, WebhookReceiver, type ReceivedDelivery } from '../support/webhook-receiver.ts';

/**
 * The Webhooks pages' dashboard API through a real socket against the local runtime, its
 * dispatcher and sender running, with a real receiver verifying every delivery with the
 * `standardwebhooks` library: an endpoint added with its secret shown once, a test event to it
 * alone, a failed delivery then `Resend`, `Roll secret` signing with both secrets, Disable,
 * Delete, each in the audit log; a Viewer changes nothing; another company reaches nothing.
 */
let runtime: LocalRuntime;
const receiver = new WebhookReceiver();
const bystander = new WebhookReceiver();

beforeAll(async () => {
  runtime = await startTestApi({ webhookIntervalMs: 100 });
  await receiver.start();
  await bystander.start();
});

afterAll(async () => {
  await receiver.stop();
  await bystander.stop();
  await runtime?.stop();
});

type Owner = Awaited<ReturnType<typeof signedUpOwner>>;


async function attemptsOf(owner: Owner, webhookId: string) {
  return (await owner.browser.call('GET', `/companies/${owner.companyId}/webhooks/${webhookId}/attempts`)).body.data as {
    eventId: string;
    eventType: string;
    httpStatus: number | null;
    result: string;
    durationMs: number;
    attemptedAt: string;
  }[];
}

async function deliveryOf(target: WebhookReceiver, eventId: string, nth = 1): Promise<ReceivedDelivery> {
  let found: ReceivedDelivery[] = [];
  await expect
    .poll(() => (found = target.deliveries.filter((d) => d.headers['webhook-id'] === eventId)).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(nth);
  return found[nth - 1]!;
}

describe('an endpoint whose secret was stored in the clear before sealing', () => {
  it('is rolled with that secret sealed as it becomes the previous one, and deliveries verify with both', async () => {
    const legacy = await signedUpOwner(runtime, 'Legacy Hooks');
    const added = await legacy.browser.call('POST', `/companies/${legacy.companyId}/webhooks`, { body: { url: bystander.url(), events: ['deposit.completed'] } });
    const { id, secret: plainSecret } = added.body.data as { id: string; secret: string };
    // As an item written before sealing holds it (webhooks:seal-secrets has not run).
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const key = webhookItem.key(legacy.companyId, id);
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: key, UpdateExpression: 'SET secret = :plain REMOVE sealedSecret', ExpressionAttributeValues: { ':plain': plainSecret } }));

    const rolled = await legacy.browser.call('POST', `/companies/${legacy.companyId}/webhooks/${id}/roll-secret`);
    expect(rolled.status).toBe(200);

    const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: key, ConsistentRead: true }));
    expect(Item!.previousSealedSecret).toMatch(/^local:/);
    expect(JSON.stringify(Item)).not.toContain(plainSecret.slice('whsec_'.length));
    const sent = await legacy.browser.call('POST', `/companies/${legacy.companyId}/webhooks/${id}/test-events`);
    const delivery = await deliveryOf(bystander, sent.body.data.eventId);
    expect(verifiesWith(delivery, plainSecret)).toBe(true);
    expect(verifiesWith(delivery, rolled.body.data.secret)).toBe(true);
  });
});

describe('an endpoint through its life', () => {
  let owner: Owner;
  let webhookId: string;
  let secret: string;

  it('is added with its secret shown once, and listed without it', async () => {
    owner = await signedUpOwner(runtime, 'Hooks Co');
    const added = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body: { url: receiver.url(), events: ['deposit.completed'], description: 'Orders' } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ url: receiver.url(), events: ['deposit.completed'], description: 'Orders', enabled: true, disabledReason: null, previousSecretExpiresAt: null });
    expect(added.body.data.secret).toMatch(/^whsec_/);
    ({ id: webhookId, secret } = added.body.data);
    receiver.secret = secret;
    const listed = await owner.browser.call('GET', `/companies/${owner.companyId}/webhooks`);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: webhookId, url: receiver.url() })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // A bystander endpoint of the same company, subscribed to everything.
    const other = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body: { url: bystander.url(), events: ['*'] } });
    expect(other.status).toBe(201);
  });

  it('receives a signed test event, to it alone, and lists the attempt', async () => {
    const sent = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/test-events`);
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({ type: 'webhook.test', eventId: expect.stringMatching(/^evt_/) });
    const delivery = await deliveryOf(receiver, sent.body.data.eventId);
    expect(delivery.verifyError).toBeNull();
    expect(delivery.verified).toMatchObject({ id: sent.body.data.eventId, type: 'webhook.test', data: { webhookId } });
    await expect.poll(async () => (await attemptsOf(owner, webhookId))[0]).toMatchObject({ eventId: sent.body.data.eventId, eventType: 'webhook.test', httpStatus: 204, result: 'succeeded' });
    // The `*` endpoint never gets another endpoint's test event.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bystander.deliveries.filter((d) => d.headers['webhook-id'] === sent.body.data.eventId)).toEqual([]);
  });

  it('shows a failed delivery (500), and Resend delivers that event again', async () => {
    receiver.respond = (_, res) => res.writeHead(500).end();
    const sent = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/test-events`);
    const eventId = sent.body.data.eventId as string;
    await deliveryOf(receiver, eventId);
    await expect.poll(async () => (await attemptsOf(owner, webhookId))[0]).toMatchObject({ eventId, httpStatus: 500, result: 'failed' });
    receiver.respond = (_, res) => res.writeHead(200).end();
    const resent = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/attempts/resend`, { body: { eventId } });
    expect([resent.status, resent.body.data]).toEqual([202, { eventId, webhookId, queued: true }]);
    const again = await deliveryOf(receiver, eventId, 2);
    expect(again.verifyError).toBeNull();
    await expect.poll(async () => (await attemptsOf(owner, webhookId)).find((a) => a.eventId === eventId && a.result === 'succeeded')).toMatchObject({ httpStatus: 200 });
    // An event never sent to this endpoint cannot be resent to it.
    const unknown = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/attempts/resend`, { body: { eventId: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    expect(unknown.status).toBe(404);
  });

  it('rolls its secret: the new one is shown once, and for 24 hours deliveries verify with the old and the new', async () => {
    const rolled = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/roll-secret`);
    expect(rolled.status).toBe(200);
    const newSecret = rolled.body.data.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(Date.parse(rolled.body.data.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const sent = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/test-events`);
    const delivery = await deliveryOf(receiver, sent.body.data.eventId);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(delivery, secret)).toBe(true);
    expect(verifiesWith(delivery, newSecret)).toBe(true);
    expect(verifiesWith(delivery, 'whsec_' + Buffer.alloc(24, 7).toString('base64'))).toBe(false);
    // An integrator on the official Node client verifies it with either secret, and reads the test event.
    for (const key of [secret, newSecret]) {
      expect(verifyWebhook(delivery.body, delivery.headers as Record<string, string>, key)).toMatchObject({ id: sent.body.data.eventId, type: 'webhook.test', data: { webhookId } });
    }
    secret = newSecret;
    receiver.secret = newSecret;
  });

  it('is disabled (nothing is delivered) and enabled again, then deleted; each change is in the audit log', async () => {
    const body = { url: receiver.url(), events: ['deposit.completed'], description: 'Orders' };
    const disabled = await owner.browser.call('PUT', `/companies/${owner.companyId}/webhooks/${webhookId}`, { body: { ...body, enabled: false } });
    expect(disabled.body.data.enabled).toBe(false);
    const before = receiver.deliveries.length;
    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks/${webhookId}/test-events`);
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.deliveries.length).toBe(before);
    expect((await owner.browser.call('PUT', `/companies/${owner.companyId}/webhooks/${webhookId}`, { body: { ...body, enabled: true } })).body.data.enabled).toBe(true);
    expect((await owner.browser.call('DELETE', `/companies/${owner.companyId}/webhooks/${webhookId}`)).body.data).toEqual({ id: webhookId, deleted: true });
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/webhooks/${webhookId}`)).status).toBe(404);
    const actions = ((await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log?limit=100`)).body.data as { action: string; target: string }[])
      .filter((entry) => entry.target === webhookId)
      .map((entry) => entry.action)
      .reverse();
    expect(actions).toEqual([
      'webhook.created',
      'webhook.test_sent',
      'webhook.test_sent',
      'webhook.resent',
      'webhook.secret_rolled',
      'webhook.test_sent',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.deleted',
    ]);
  });

  it('keeps an endpoint Cambio disabled after a 410 off when an edit leaves `enabled` out, as the page does', async () => {
    const body = { url: receiver.url(), events: ['deposit.completed'], description: 'Orders' };
    const webhookId = (await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body })).body.data.id as string;
    const db = createDocumentClient(runtime.dynamoEndpoint);
    // The endpoint answered 410 Gone after the person opened its page (the sender's own write).
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: webhookItem.key(owner.companyId, webhookId), UpdateExpression: 'SET enabled = :off, disabledReason = :why', ExpressionAttributeValues: { ':off': false, ':why': 'the endpoint answered 410 Gone' } }));

    const edited = await owner.browser.call('PUT', `/companies/${owner.companyId}/webhooks/${webhookId}`, { body: { ...body, description: 'Orders (renamed)' } });

    expect(edited.body.data).toMatchObject({ description: 'Orders (renamed)', enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
    // Enable, said so, turns it on and clears why it was off.
    const enabled = await owner.browser.call('PUT', `/companies/${owner.companyId}/webhooks/${webhookId}`, { body: { ...body, enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
    db.destroy();
  });
});

describe('an endpoint Cambio disabled after a 410', () => {
  const fixed = new WebhookReceiver();
  beforeAll(() => fixed.start());
  afterAll(() => fixed.stop());

  it('refuses Send test event and Resend until it is enabled, saying so, and writes and sends nothing; once enabled, both go', async () => {
    const owner = await signedUpOwner(runtime, 'Gone Hooks Co');
    const base = `/companies/${owner.companyId}/webhooks`;
    const added = await owner.browser.call('POST', base, { body: { url: fixed.url(), events: ['deposit.completed'] } });
    const webhookId = added.body.data.id as string;
    fixed.secret = added.body.data.secret;
    const first = (await owner.browser.call('POST', `${base}/${webhookId}/test-events`)).body.data.eventId as string;
    await deliveryOf(fixed, first);
    await expect.poll(async () => (await attemptsOf(owner, webhookId)).length).toBe(1);
    // The receiver answered 410 Gone (the sender's own write disables the endpoint); it is then
    // fixed, and the person tries it before pressing Enable.
    const db = createDocumentClient(runtime.dynamoEndpoint);
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: webhookItem.key(owner.companyId, webhookId), UpdateExpression: 'SET enabled = :off, disabledReason = :why', ExpressionAttributeValues: { ':off': false, ':why': 'the endpoint answered 410 Gone' } }));
    db.destroy();

    const test = await owner.browser.call('POST', `${base}/${webhookId}/test-events`);
    const resend = await owner.browser.call('POST', `${base}/${webhookId}/attempts/resend`, { body: { eventId: first } });

    for (const refused of [test, resend]) {
      expect([refused.status, refused.body.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(refused.body.error.message).toMatch(/disabled: enable it first/);
    }
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(fixed.deliveries).toHaveLength(1);
    expect(await attemptsOf(owner, webhookId)).toHaveLength(1);
    const audited = async () => ((await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log?limit=100`)).body.data as { action: string; target: string }[]).filter((entry) => entry.target === webhookId).map((entry) => entry.action).reverse();
    expect(await audited()).toEqual(['webhook.created', 'webhook.test_sent']);
    const events = (await owner.browser.call('GET', `/companies/${owner.companyId}/activity/events?limit=100`)).body.data as { id: string; type: string }[];
    expect(events.filter((event) => event.type === 'webhook.test').map((event) => event.id)).toEqual([first]);

    const enabled = await owner.browser.call('PUT', `${base}/${webhookId}`, { body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
    const sent = await owner.browser.call('POST', `${base}/${webhookId}/test-events`);
    expect(sent.status).toBe(202);
    expect((await deliveryOf(fixed, sent.body.data.eventId)).verifyError).toBeNull();
    const resent = await owner.browser.call('POST', `${base}/${webhookId}/attempts/resend`, { body: { eventId: first } });
    expect(resent.status).toBe(202);
    await deliveryOf(fixed, first, 2);
  });
});

describe('who may change endpoints', () => {
  it('a Viewer reads but changes nothing; another company reaches nothing', async () => {
    const owner = await signedUpOwner(runtime, 'Viewer Hooks Co');
    const stranger = await signedUpOwner(runtime, 'Stranger Hooks Co');
    const added = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body: { url: receiver.url(), events: ['*'] } });
    const id = added.body.data.id as string;
    const email = uniqueEmail('viewer');
    expect((await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Viewer' } })).status).toBe(201);
    const viewer = dashboardBrowser(runtime);
    expect((await viewer.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(runtime, email), password: STRONG_PASSWORD } })).status).toBe(200);

    expect((await viewer.call('GET', `/companies/${owner.companyId}/webhooks`)).status).toBe(200);
    const c = owner.companyId;
    for (const [method, path, body] of [
      ['POST', `/companies/${c}/webhooks`, { url: receiver.url(), events: ['*'] }],
      ['PUT', `/companies/${c}/webhooks/${id}`, { url: receiver.url(), events: ['*'], enabled: false }],
      ['DELETE', `/companies/${c}/webhooks/${id}`, undefined],
      ['POST', `/companies/${c}/webhooks/${id}/test-events`, undefined],
      ['POST', `/companies/${c}/webhooks/${id}/roll-secret`, undefined],
      ['POST', `/companies/${c}/webhooks/${id}/attempts/resend`, { eventId: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV' }],
    ] as const) {
      const answer = await viewer.call(method, path, body === undefined ? {} : { body });
      expect([answer.status, answer.body.error?.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
    }
    expect((await owner.browser.call('GET', `/companies/${c}/webhooks/${id}`)).body.data).toMatchObject({ enabled: true });

    // The stranger: through their own company the id is unknown; through ours, the company is.
    expect((await stranger.browser.call('GET', `/companies/${stranger.companyId}/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.browser.call('GET', `/companies/${stranger.companyId}/webhooks/${id}/attempts`)).status).toBe(404);
    expect((await stranger.browser.call('POST', `/companies/${stranger.companyId}/webhooks/${id}/test-events`)).status).toBe(404);
    expect((await stranger.browser.call('GET', `/companies/${c}/webhooks`)).status).toBe(404);
  });
});
