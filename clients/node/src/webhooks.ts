import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/), in two steps as the
 * reference libraries and Stripe's do them: first the signature — base64(HMAC-SHA256(key,
 * `${webhook-id}.${webhook-timestamp}.${body}`)) over the exact bytes sent, the key being the
 * secret's base64 (after an optional `whsec_`, padded or not) — and the timestamp; only then the
 * body is read. A body that verifies is never reported as a bad signature, whatever it holds.
 */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way (replay protection). Default 300 s. */
  toleranceSeconds?: number;
  /** For tests: the current time. */
  now?: Date;
}

/** A delivery whose signature verified but whose body is not a Cambio event (not JSON, or JSON
 * without `id`, `type` and `data`): nothing Cambio sends, so handle it as you would an unknown type. */
export interface UnknownWebhookEvent {
  /** The `webhook-id` header. */
  id: string;
  type: null;
  createdAt: null;
  data: null;
}

const RAW_BODY_HINT =
  'Pass the raw request body exactly as received (a string or Buffer, e.g. from express.raw({ type: "application/json" })), ' +
  'not a parsed object re-serialised with JSON.stringify.';

/** Step one: throws WebhookVerificationError unless the delivery is signed with `secret` and fresh. Reads nothing of the body. */
export function verifyWebhookSignature(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): void {
  signedDelivery(rawBody, headers, secret, options);
}

/** Both steps: verifies, then returns the event — or an UnknownWebhookEvent when the verified body is not a Cambio event. */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent | UnknownWebhookEvent {
  const { body, id } = signedDelivery(rawBody, headers, secret, options);
  return parseEvent(body) ?? { id, type: null, createdAt: null, data: null };
}

/** True for a Cambio event, false for an UnknownWebhookEvent. */
export function isCambioEvent(event: WebhookEvent | UnknownWebhookEvent): event is WebhookEvent {
  return event.type !== null;
}

function signedDelivery(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions): { body: string; id: string } {
  const key = signingKey(secret);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError(`rawBody is a ${rawBody === null ? 'null' : typeof rawBody}, not the request body. ${RAW_BODY_HINT}`);
  }
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    const missing = Object.entries({ 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures }).filter(([, value]) => !value);
    throw new WebhookVerificationError(
      `Missing ${missing.map(([name]) => name).join(', ')} header: is this a Cambio delivery? Pass the request's headers, unchanged.`,
    );
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) {
    throw new WebhookVerificationError(`webhook-timestamp is not unix seconds: ${JSON.stringify(timestamp.slice(0, 40))}`);
  }
  checkFreshness(seconds, options);
  const expected = sign(key, id, timestamp, body);
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (!candidates.some((candidate) => matches(candidate, expected))) {
    throw new WebhookVerificationError(`No matching signature: ${diagnose(body, key, id, timestamp, candidates)}`);
  }
  return { body, id };
}

function checkFreshness(seconds: number, options: VerifyOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const beyond = `beyond the ${tolerance} s tolerance (a replayed or delayed delivery, or a wrong clock)`;
  if (now - seconds > tolerance) throw new WebhookVerificationError(`webhook-timestamp is too old: ${now - seconds} s before now, ${beyond}`);
  if (seconds - now > tolerance) throw new WebhookVerificationError(`webhook-timestamp is in the future: ${seconds - now} s after now, ${beyond}`);
}

/** The event when the body is one (an object with a string `id` and `type` and an object `data`), else null. */
function parseEvent(body: string): WebhookEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { id, type, data } = parsed as Record<string, unknown>;
  const isEvent = typeof id === 'string' && typeof type === 'string' && typeof data === 'object' && data !== null && !Array.isArray(data);
  return isEvent ? (parsed as WebhookEvent) : null;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = found === undefined ? undefined : record[found];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** The key: the secret's base64 after an optional `whsec_`, padding optional (as the reference libraries take it). */
function signingKey(secret: string): Buffer {
  if (typeof secret !== 'string') {
    throw new WebhookVerificationError(`The secret is a ${secret === null ? 'null' : typeof secret}: pass the webhook's signing secret, "whsec_…", as POST /v1/webhooks answered it`);
  }
  // A secret read from an env file or pasted keeps a newline or spaces around it: trimmed, as the other clients do.
  const trimmed = secret.trim();
  const encoded = trimmed.startsWith('whsec_') ? trimmed.slice('whsec_'.length) : trimmed;
  if (encoded === '') throw new WebhookVerificationError('The secret is empty: pass the webhook\'s signing secret, "whsec_…", as POST /v1/webhooks answered it');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new WebhookVerificationError('The secret is not base64 after "whsec_": copy it whole, as POST /v1/webhooks answered it');
  return Buffer.from(encoded, 'base64');
}

function sign(key: Buffer, id: string, timestamp: string, body: string): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
}

function matches(candidate: Buffer, expected: Buffer): boolean {
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** Why no signature matched, as far as it can be known: the mistakes that leave a mark are named, anything else is not guessed at. */
function diagnose(body: string, key: Buffer, id: string, timestamp: string, candidates: Buffer[]): string {
  if (candidates.length === 0) return 'webhook-signature holds no v1 signature ("v1,<base64>"), the only scheme Cambio signs with.';
  if (body === '[object Object]') return `the body is "[object Object]": an object was turned into a string. ${RAW_BODY_HINT}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
  const compact = parsed === undefined ? body : JSON.stringify(parsed);
  if (compact !== body && candidates.some((candidate) => matches(candidate, sign(key, id, timestamp, compact)))) {
    return `the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. ${RAW_BODY_HINT}`;
  }
  return `the secret is not this webhook's, or the body or webhook-id is not what was signed. ${RAW_BODY_HINT}`;
}
