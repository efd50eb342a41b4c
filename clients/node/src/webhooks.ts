import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/): the signature is
 * base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`)) over the exact bytes
 * Cambio sent, the key being the base64-decoded part of the secret after `whsec_`.
 */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now (replay protection). Default 300 s. */
  toleranceSeconds?: number;
  /** For tests: the current time. */
  now?: Date;
}

const RAW_BODY_HINT =
  'Pass the raw request body exactly as received (a string or Buffer, e.g. from express.raw({ type: "application/json" })), ' +
  'not a parsed object re-serialised with JSON.stringify.';

/** Returns the event when the delivery is authentic and fresh; throws WebhookVerificationError otherwise. */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): WebhookEvent {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError(`rawBody is a ${rawBody === null ? 'null' : typeof rawBody}, not the request body. ${RAW_BODY_HINT}`);
  }
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header: is this a Cambio delivery?');
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError('webhook-timestamp is not unix seconds');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError(
      `webhook-timestamp is ${now - seconds} s from now, beyond the ${tolerance} s tolerance: a replayed or delayed delivery, or a wrong clock`,
    );
  }
  const key = signingKey(secret);
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (!candidates.some((candidate) => matches(candidate, sign(key, id, timestamp, body)))) {
    throw new WebhookVerificationError(`No signature matches. ${diagnose(body, key, id, timestamp, candidates)}`);
  }
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The signature matches but the body is not JSON');
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = found === undefined ? undefined : record[found];
  return Array.isArray(value) ? value.join(' ') : value;
}

function signingKey(secret: string): Buffer {
  if (typeof secret !== 'string' || !secret.startsWith('whsec_')) {
    throw new WebhookVerificationError('The secret must be the webhook\'s signing secret, "whsec_…", as POST /v1/webhooks answered it');
  }
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

function sign(key: Buffer, id: string, timestamp: string, body: string): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
}

function matches(candidate: Buffer, expected: Buffer): boolean {
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** Names the usual mistake when the body looks like it was parsed and serialised again. */
function diagnose(body: string, key: Buffer, id: string, timestamp: string, candidates: Buffer[]): string {
  if (body === '[object Object]') return `The body is "[object Object]": an object was turned into a string. ${RAW_BODY_HINT}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `Check that the secret is this webhook's and that the body is unchanged. ${RAW_BODY_HINT}`;
  }
  // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
  const compact = JSON.stringify(parsed);
  if (compact !== body && candidates.some((candidate) => matches(candidate, sign(key, id, timestamp, compact)))) {
    return `The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. ${RAW_BODY_HINT}`;
  }
  if (compact !== body) {
    return `The body looks like re-serialised JSON (re-indented or re-ordered), not the bytes Cambio signed. ${RAW_BODY_HINT}`;
  }
  return (
    'The body is JSON: if your framework parsed it and you serialised it again, its bytes may differ from what Cambio ' +
    `signed (key order, escapes). ${RAW_BODY_HINT} Otherwise check that the secret is this webhook's.`
  );
}
