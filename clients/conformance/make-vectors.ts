/**
 * Writes clients/conformance/vectors.json: webhook deliveries signed by the npm `standardwebhooks`
 * library (the reference implementation of the scheme Cambio signs with), and whether each must
 * verify. Every official client checks every vector. Inputs are fixed, so the output is the same
 * on every run (test/unit/conformance-vectors.test.ts fails when the committed file drifts).
 *
 *   npx tsx clients/conformance/make-vectors.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

export interface Vector {
  name: string;
  description: string;
  secret: string;
  /** Exactly as an HTTP server hands them over (names in whatever case the vector says). */
  headers: Record<string, string>;
  /** The raw body: verify these exact bytes (UTF-8). */
  body: string;
  /** Unix seconds to verify at (every client's verify takes a clock for tests). */
  now: number;
  valid: boolean;
  /** When valid: the event type verify returns. */
  eventType?: string;
  /** When invalid: a piece of text the error message must contain (case-insensitive), where one is fixed. */
  messageIncludes?: string;
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const ID = 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X';

const event = {
  id: ID,
  type: 'deposit.completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: {
    id: 'dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J',
    method: 'usdt',
    reference: 'order-1',
    network: 'tron',
    address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    amount: '25.000000',
    receivedAmount: '25.000000',
    creditedAmount: '25.000000',
    amountStatus: 'exact',
    status: 'completed',
    note: 'Olá, São Paulo — ünïcødé stays byte-exact',
  },
};
const body = JSON.stringify(event);

function sign(secret: string, id: string, timestamp: number, payload: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), payload);
}

function headers(id: string, timestamp: number, signature: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

export function makeVectors(): Vector[] {
  const good = sign(SECRET, ID, NOW, body);
  const wrong = sign(OTHER_SECRET, ID, NOW, body);
  const pretty = JSON.stringify(event, null, 2);
  return [
    {
      name: 'valid',
      description: 'One v1 signature over the exact body, timestamp equal to now',
      secret: SECRET, headers: headers(ID, NOW, good), body, now: NOW, valid: true, eventType: 'deposit.completed',
    },
    {
      name: 'several signatures, the second matches',
      description: 'A rolled secret: the header carries the old key\'s signature first, then the matching one',
      secret: SECRET, headers: headers(ID, NOW, `${wrong} ${good}`), body, now: NOW, valid: true, eventType: 'deposit.completed',
    },
    {
      name: 'upper-case header names',
      description: 'Header names arrive in any case (HTTP names are case-insensitive)',
      secret: SECRET,
      headers: { 'Webhook-Id': ID, 'WEBHOOK-TIMESTAMP': String(NOW), 'Webhook-Signature': good },
      body, now: NOW, valid: true, eventType: 'deposit.completed',
    },
    {
      name: 'within tolerance',
      description: 'Signed 299 s before now: inside the 300 s window',
      secret: SECRET, headers: headers(ID, NOW - 299, sign(SECRET, ID, NOW - 299, body)), body, now: NOW, valid: true, eventType: 'deposit.completed',
    },
    {
      name: 'tampered body',
      description: 'The amount changed after signing',
      secret: SECRET, headers: headers(ID, NOW, good), body: body.replace('"25.000000"', '"95.000000"'), now: NOW, valid: false,
    },
    {
      name: 're-serialised body',
      description: 'The body parsed and serialised again (indented): the same JSON, other bytes; the message names the mistake',
      secret: SECRET, headers: headers(ID, NOW, good), body: pretty, now: NOW, valid: false, messageIncludes: 're-serialised',
    },
    {
      name: 'wrong secret',
      description: 'Signed with another webhook\'s secret',
      secret: SECRET, headers: headers(ID, NOW, wrong), body, now: NOW, valid: false,
    },
    {
      name: 'stale timestamp',
      description: 'Signed 301 s before now: a replay',
      secret: SECRET, headers: headers(ID, NOW - 301, sign(SECRET, ID, NOW - 301, body)), body, now: NOW, valid: false,
    },
    {
      name: 'future timestamp',
      description: 'Signed 301 s after now',
      secret: SECRET, headers: headers(ID, NOW + 301, sign(SECRET, ID, NOW + 301, body)), body, now: NOW, valid: false,
    },
    {
      name: 'id swapped',
      description: 'A valid signature replayed under another webhook-id',
      secret: SECRET, headers: headers('evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4Y', NOW, good), body, now: NOW, valid: false,
    },
    {
      name: 'unknown signature version',
      description: 'Only a v1a entry: not a scheme Cambio signs with',
      secret: SECRET, headers: headers(ID, NOW, good.replace(/^v1,/, 'v1a,')), body, now: NOW, valid: false,
    },
    {
      name: 'missing signature header',
      description: 'No webhook-signature at all',
      secret: SECRET, headers: { 'webhook-id': ID, 'webhook-timestamp': String(NOW) }, body, now: NOW, valid: false,
    },
    {
      name: 'timestamp not a number',
      description: 'webhook-timestamp must be unix seconds',
      secret: SECRET, headers: headers(ID, NOW, good), body, now: NOW, valid: false,
    },
  ].map((vector) =>
    vector.name === 'timestamp not a number' ? { ...vector, headers: { ...vector.headers, 'webhook-timestamp': '2026-01-01T00:00:00Z' } } : vector,
  );
}

export function vectorsFile(): string {
  return `${JSON.stringify(
    {
      about:
        'Standard Webhooks deliveries signed by the npm standardwebhooks library; every official Cambio client must accept exactly the valid ones. Made by clients/conformance/make-vectors.ts.',
      toleranceSeconds: 300,
      vectors: makeVectors(),
    },
    null,
    2,
  )}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./vectors.json', import.meta.url), vectorsFile());
  console.log('wrote clients/conformance/vectors.json');
}
