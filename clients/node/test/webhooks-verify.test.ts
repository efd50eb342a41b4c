import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Cambio, isCambioEvent, verifyWebhook, WebhookVerificationError } from '../src/index.ts';
import type { Deposit, EventType, webhooks } from '../src/index.ts';

/** webhooks.verify against deliveries signed by the Standard Webhooks reference library. */
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const now = new Date('2026-01-15T12:00:00.000Z');
const event = {
  id: 'evt_01JBZ6W1V7Q8R9S0T1U2V3W4X5',
  type: 'conversion.completed',
  createdAt: '2026-01-15T12:00:00.000Z',
  data: { id: 'cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5', sourceAmount: '10.000000', settlementAmount: '54.00', note: 'ação' },
};
// What Cambio sends: compact JSON, signed once.
const body = JSON.stringify(event);

function delivery(payload = body, at = now) {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'webhook-id': event.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': new StandardWebhook(secret).sign(event.id, at, payload),
  };
}

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected verification to fail');
}

describe('webhooks.verify', () => {
  const cambio = new Cambio({ apiKey: 'ck_test_x', apiSecret: 'cs_test_x', baseUrl: 'http://127.0.0.1:1' });

  it('accepts a delivery signed as Standard Webhooks says, from a string, a Buffer or a Headers object', () => {
    expect(cambio.webhooks.verify(body, delivery(), secret, { now })).toEqual(event);
    expect(verifyWebhook(Buffer.from(body), delivery(), secret, { now })).toEqual(event);
    expect(verifyWebhook(body, new Headers(delivery()), secret, { now })).toEqual(event);
    const upperCased = Object.fromEntries(Object.entries(delivery()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(body, upperCased, secret, { now })).toEqual(event);
  });

  it('accepts any of several signatures (a rotated secret), v1 only', () => {
    const headers = delivery();
    headers['webhook-signature'] = `v2,bm9wZQ== v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`;
    expect(verifyWebhook(body, headers, secret, { now })).toEqual(event);
  });

  it('refuses a body changed by one byte, a wrong secret and a missing header', () => {
    expect(refusal(() => verifyWebhook(body.replace('54.00', '55.00'), delivery(), secret, { now })).message).toMatch(/No matching signature/);
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(refusal(() => verifyWebhook(body, delivery(), other, { now })).message).toMatch(/secret/);
    const { 'webhook-signature': _, ...unsigned } = delivery();
    expect(refusal(() => verifyWebhook(body, unsigned, secret, { now })).message).toMatch(/Missing/);
    expect(refusal(() => verifyWebhook(body, delivery(), 'not-a-secret', { now })).message).toMatch(/not base64/);
  });

  it('takes the secret as whsec_ and base64 or as the raw base64 key, padded or not', () => {
    const raw = secret.slice('whsec_'.length);
    expect(verifyWebhook(body, delivery(), raw, { now })).toEqual(event);
    const key = Buffer.from('a key of 23 bytes, odd!').toString('base64');
    expect(key).toMatch(/=$/);
    const signed = { ...delivery(), 'webhook-signature': new StandardWebhook(key).sign(event.id, now, body) };
    expect(verifyWebhook(body, signed, `whsec_${key.replace(/=+$/, '')}`, { now })).toEqual(event);
    expect(refusal(() => verifyWebhook(body, delivery(), 'whsec_', { now })).message).toMatch(/secret is empty/);
  });

  it('takes the secret with the whitespace around it that an env file or a copy leaves (trimmed, as the other clients do)', () => {
    expect(verifyWebhook(body, delivery(), `${secret}\n`, { now })).toEqual(event);
    expect(verifyWebhook(body, delivery(), `  ${secret}\r\n`, { now })).toEqual(event);
    expect(cambio.webhooks.verify(body, delivery(), `\t${secret.slice('whsec_'.length)} `, { now })).toEqual(event);
    expect(refusal(() => verifyWebhook(body, delivery(), ' \n', { now })).message).toMatch(/secret is empty/);
  });

  it('a plain wrong signature is not blamed on re-serialisation', () => {
    const forged = { ...delivery(), 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    const message = refusal(() => verifyWebhook(body, forged, secret, { now })).message;
    expect(message).toMatch(/^No matching signature: the secret is not this webhook's/);
    expect(message).not.toMatch(/re-serialised JSON/);
  });

  it('returns a verified body that is not a Cambio event as an unknown event, and verifySignature checks alone', () => {
    for (const other of ['', 'hello', '{"test": 2432232314}', '[1,2]', '{"id":"x","type":"t"}']) {
      const verified = cambio.webhooks.verify(other, delivery(other), secret, { now });
      expect(verified).toEqual({ id: event.id, type: null, createdAt: null, data: null });
      expect(isCambioEvent(verified)).toBe(false);
      expect(cambio.webhooks.verifySignature(other, delivery(other), secret, { now })).toBeUndefined();
    }
    expect(isCambioEvent(cambio.webhooks.verify(body, delivery(), secret, { now }))).toBe(true);
    expect(refusal(() => cambio.webhooks.verifySignature('hello', delivery(), secret, { now })).message).toMatch(/No matching signature/);
  });

  it('gives a deposit.transfer_reversed delivery as its event, data typed as the Deposit', () => {
    const reversed = {
      id: 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X',
      type: 'deposit.transfer_reversed',
      createdAt: '2026-01-15T12:00:00.000Z',
      data: { id: 'dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J', network: 'bsc', address: '0x52908400098527886E0F7030069857D2E4169EE7', status: 'awaiting_payment', receivedAmount: '0.000000' },
    };
    const raw = JSON.stringify(reversed);
    const verified = verifyWebhook(raw, delivery(raw), secret, { now });
    expect(verified).toEqual(reversed);
    if (verified.type !== 'deposit.transfer_reversed') throw new Error(`parsed as ${verified.type}`);
    expectTypeOf(verified.data).toEqualTypeOf<Deposit>();
    expect(verified.data.network).toBe('bsc');
  });

  it('gives a deposit.held delivery as its event, data typed as the Deposit with its holdReason', () => {
    const held = {
      id: 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4Y',
      type: 'deposit.held',
      createdAt: '2026-01-15T12:00:00.000Z',
      data: { id: 'dep_01KBJ4XZ0A1B2C3D4E5F6G7H8K', network: 'tron', status: 'held', holdReason: 'address_frozen', receivedAmount: '25.000000', creditedAmount: '0.000000' },
    };
    const raw = JSON.stringify(held);
    const verified = verifyWebhook(raw, delivery(raw), secret, { now });
    expect(verified).toEqual(held);
    if (verified.type !== 'deposit.held') throw new Error(`parsed as ${verified.type}`);
    expectTypeOf(verified.data).toEqualTypeOf<Deposit>();
    expectTypeOf(verified.data.holdReason).toEqualTypeOf<'address_frozen' | 'sender_sanctioned' | null>();
    expect(verified.data.holdReason).toBe('address_frozen');
  });

  it('can switch on every event type openapi.json describes (type-checked)', () => {
    // webhook.test is the dashboard's "Send test" only, never a type a webhook subscribes to.
    expectTypeOf<Exclude<keyof webhooks, 'webhook.test'>>().toEqualTypeOf<EventType>();
  });

  it('refuses a timestamp more than 5 minutes away, either way', () => {
    const old = delivery(body, new Date(now.getTime() - 301_000));
    expect(refusal(() => verifyWebhook(body, old, secret, { now })).message).toMatch(/too old: 301 s before now, beyond the 300 s tolerance/);
    const future = delivery(body, new Date(now.getTime() + 301_000));
    expect(refusal(() => verifyWebhook(body, future, secret, { now })).message).toMatch(/in the future: 301 s after now/);
    expect(verifyWebhook(body, delivery(body, new Date(now.getTime() - 299_000)), secret, { now })).toEqual(event);
  });

  it('names the usual mistake when the body was parsed and serialised again', () => {
    const reindented = JSON.stringify(JSON.parse(body), null, 2);
    const error = refusal(() => verifyWebhook(reindented, delivery(), secret, { now }));
    expect(error.message).toMatch(/re-serialised/);
    expect(error.message).toMatch(/raw request body/);
    expect(error.code).toBe('WEBHOOK_VERIFICATION_FAILED');

    const reordered = JSON.stringify({ data: event.data, type: event.type, id: event.id, createdAt: event.createdAt });
    expect(refusal(() => verifyWebhook(reordered, delivery(), secret, { now })).message).toMatch(/raw request body/);
    expect(refusal(() => verifyWebhook('[object Object]', delivery(), secret, { now })).message).toMatch(/\[object Object\]/);
    expect(refusal(() => verifyWebhook(JSON.parse(body) as never, delivery(), secret, { now })).message).toMatch(/not the request body/);
  });

  it('signs what the reference library verifies: both sides agree on the scheme', () => {
    // The library is the judge of the header format the client parses.
    expect(new StandardWebhook(secret).verify(body, delivery(body, new Date()))).toEqual(event);
  });
});
