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

/**
 * What verify must do with a vector:
 * - `event`: verified, and the body is a Cambio event (its `type` is `eventType`);
 * - `unknown`: verified, but the body is not a Cambio event (not JSON, empty, or JSON without
 *   `id`, `type` and `data`): returned as an unknown event, never refused;
 * - `rejected`: refused with the client's WebhookVerification error, whose message contains
 *   `messageIncludes` (case-insensitive).
 */
export type Expect = 'event' | 'unknown' | 'rejected';

export interface Vector {
  name: string;
  description: string;
  /** The Standard Webhooks reference libraries whose own tests hold this case (libraries/ in github.com/standard-webhooks/standard-webhooks). */
  reference?: string[];
  /** `whsec_` and base64, or the raw base64 key; padded or not. */
  secret: string;
  /** Exactly as an HTTP server hands them over (names in whatever case the vector says). */
  headers: Record<string, string>;
  /** The raw body: verify these exact bytes (UTF-8). */
  body: string;
  /** Unix seconds to verify at (every client's verify takes a clock for tests). */
  now: number;
  expect: Expect;
  /** `expect` is not `rejected` (kept for readers of the first version of this file). */
  valid: boolean;
  /** When `expect` is `event`: the event type verify returns. */
  eventType?: string;
  /** When `expect` is `rejected`: a piece of text the error message contains (case-insensitive). */
  messageIncludes?: string;
}

/** The fragments every client's messages carry, so a refusal says what failed. */
export const MESSAGES = {
  emptySecret: 'secret is empty',
  missing: (header: string) => `missing ${header}`,
  notSeconds: 'not unix seconds',
  tooOld: 'too old',
  inTheFuture: 'in the future',
  noMatch: 'no matching signature',
  reserialised: 're-serialised',
} as const;

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

function headers(id: string, timestamp: number | string, signature: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

type Case = Omit<Vector, 'valid' | 'secret' | 'now' | 'headers' | 'body'> & Partial<Pick<Vector, 'secret' | 'now' | 'headers' | 'body'>>;

/** Cambio's own cases: a real event body, rolled secrets, the re-serialised body users send. */
function cambioCases(): Case[] {
  const good = sign(SECRET, ID, NOW, body);
  const wrong = sign(OTHER_SECRET, ID, NOW, body);
  const at = (offset: number): Pick<Vector, 'headers'> => ({ headers: headers(ID, NOW + offset, sign(SECRET, ID, NOW + offset, body)) });
  const deposit = { expect: 'event', eventType: 'deposit.completed' } as const;
  const unlike = JSON.stringify({ ...event, type: 'account.updated', data: { accountId: 'acc_1' } });
  return [
    { name: 'valid', description: 'One v1 signature over the exact body, timestamp equal to now', headers: headers(ID, NOW, good), ...deposit },
    {
      name: 'several signatures, the second matches',
      description: 'A rolled secret: the header carries the old key\'s signature first, then the matching one',
      headers: headers(ID, NOW, `${wrong} ${good}`), ...deposit,
    },
    {
      name: 'upper-case header names',
      description: 'Header names arrive in any case (HTTP names are case-insensitive)',
      headers: { 'Webhook-Id': ID, 'WEBHOOK-TIMESTAMP': String(NOW), 'Webhook-Signature': good }, ...deposit,
    },
    { name: 'within tolerance', description: 'Signed 299 s before now: inside the 300 s window', ...at(-299), ...deposit },
    { name: 'exactly the tolerance old', description: 'Signed 300 s before now: the window includes its edge', ...at(-300), ...deposit },
    { name: 'exactly the tolerance ahead', description: 'Signed 300 s after now (a sender\'s clock ahead): the window includes its edge', ...at(300), ...deposit },
    {
      name: 'an event type this client does not know',
      description: 'A Cambio event of a type added after this client was written: still an event, its type as sent',
      headers: headers(ID, NOW, sign(SECRET, ID, NOW, unlike)), body: unlike, expect: 'event', eventType: 'account.updated',
    },
    {
      name: 'signed body that is not JSON',
      description: 'The signature matches: the body is returned as an unknown event, not refused as a bad signature',
      headers: headers(ID, NOW, sign(SECRET, ID, NOW, 'hello')), body: 'hello', expect: 'unknown',
    },
    {
      name: 'tampered body', description: 'The amount changed after signing',
      headers: headers(ID, NOW, good), body: body.replace('"25.000000"', '"95.000000"'), expect: 'rejected', messageIncludes: MESSAGES.noMatch,
    },
    {
      name: 're-serialised body',
      description: 'The body parsed and serialised again (indented): the same JSON, other bytes; the message names the mistake',
      headers: headers(ID, NOW, good), body: JSON.stringify(event, null, 2), expect: 'rejected', messageIncludes: MESSAGES.reserialised,
    },
    { name: 'wrong secret', description: 'Signed with another webhook\'s secret', headers: headers(ID, NOW, wrong), expect: 'rejected', messageIncludes: MESSAGES.noMatch },
    { name: 'stale timestamp', description: 'Signed 301 s before now: a replay', ...at(-301), expect: 'rejected', messageIncludes: MESSAGES.tooOld },
    { name: 'future timestamp', description: 'Signed 301 s after now', ...at(301), expect: 'rejected', messageIncludes: MESSAGES.inTheFuture },
    {
      name: 'id swapped', description: 'A valid signature replayed under another webhook-id',
      headers: headers('evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4Y', NOW, good), expect: 'rejected', messageIncludes: MESSAGES.noMatch,
    },
    {
      name: 'unknown signature version', description: 'Only a v1a entry: not a scheme Cambio signs with',
      headers: headers(ID, NOW, good.replace(/^v1,/, 'v1a,')), expect: 'rejected', messageIncludes: MESSAGES.noMatch,
    },
    {
      name: 'missing signature header', description: 'No webhook-signature at all',
      headers: { 'webhook-id': ID, 'webhook-timestamp': String(NOW) }, expect: 'rejected', messageIncludes: MESSAGES.missing('webhook-signature'),
    },
    {
      name: 'timestamp not a number', description: 'webhook-timestamp must be unix seconds',
      headers: headers(ID, '2026-01-01T00:00:00Z', good), expect: 'rejected', messageIncludes: MESSAGES.notSeconds,
    },
  ];
}

const ALL = ['JavaScript', 'Python', 'Ruby', 'PHP', 'Java', 'C#', 'Go'];

/**
 * Every verification case the reference libraries test themselves with, ported as they are written
 * there: their raw key (no `whsec_`), their message id and their body (not a Cambio event), with the
 * clock fixed where theirs reads Date.now(). A case several libraries share is one vector.
 */
function referenceCases(): Case[] {
  const RAW = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const MSG = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const PAYLOAD = '{"test": 2432232314}';
  const good = sign(RAW, MSG, NOW, PAYLOAD);
  const signed = (signature: string): Pick<Case, 'headers'> => ({ headers: headers(MSG, NOW, signature) });
  const without = (name: string): Pick<Case, 'headers'> => {
    const all = headers(MSG, NOW, good);
    delete all[name];
    return { headers: all };
  };
  const base = { secret: RAW, body: PAYLOAD, headers: headers(MSG, NOW, good) };
  const verified = { ...base, expect: 'unknown' } as const;
  const noMatch = { ...base, expect: 'rejected', messageIncludes: MESSAGES.noMatch } as const;
  const wrongV1 = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';
  // Python's unpadded-secret test: the key is signed with its padding and verified without it.
  const unpadded = (key: string, padding: string, prefix = '') => ({
    ...verified, secret: `${prefix}${key}`, headers: headers(MSG, NOW, sign(key + padding, MSG, NOW, PAYLOAD)),
  });
  const cases: Case[] = [
    { name: 'valid signature, raw secret', description: 'The reference test key without whsec_: the raw base64 key is a valid secret', reference: ALL, ...verified },
    { name: 'valid signature, whsec_ secret', description: 'The same key with its whsec_ prefix', reference: ALL, ...verified, secret: `whsec_${RAW}` },
    {
      name: 'another body', description: 'PHP\'s test body ({"test": 2432232315})', reference: ['PHP'],
      ...verified, body: '{"test": 2432232315}', headers: headers(MSG, NOW, sign(RAW, MSG, NOW, '{"test": 2432232315}')),
    },
    {
      name: 'several signatures, a v2 alongside', description: 'A wrong v1, a v2 (ignored), the matching v1, a wrong v1', reference: ALL,
      ...verified, ...signed([wrongV1, wrongV1.replace('v1,', 'v2,'), good, wrongV1].join(' ')),
    },
    {
      name: 'mixed-case header names', description: 'Webhook-Id, WEBHOOK-TIMESTAMP, webhook-SIGNATURE', reference: ['Java'],
      ...verified, headers: { 'Webhook-Id': MSG, 'WEBHOOK-TIMESTAMP': String(NOW), 'webhook-SIGNATURE': good },
    },
    { name: 'unpadded secret, one = short', description: 'A raw key whose base64 needs one = of padding, given without it', reference: ['Python'], ...unpadded('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', '=') },
    { name: 'unpadded secret, two = short', description: 'A raw key whose base64 needs two = of padding, given without them', reference: ['Python'], ...unpadded('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr', '==') },
    {
      name: 'unpadded secret after whsec_', description: 'whsec_ and a key whose base64 needs two = of padding, given without them', reference: ['Python'],
      ...unpadded('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr', '==', 'whsec_'),
    },
    { name: 'empty body', description: 'An empty body whose signature matches: verified (nothing to parse)', reference: ['JavaScript'], ...verified, body: '', ...signed(sign(RAW, MSG, NOW, '')) },
    {
      name: 'the signing example', description: 'The signature every reference library\'s sign test expects, verified at its own time', reference: ALL,
      ...verified, secret: `whsec_${RAW}`, now: 1_614_265_330, headers: headers(MSG, 1_614_265_330, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='),
    },
    { name: 'missing webhook-id', description: 'No webhook-id header', reference: ALL, ...base, ...without('webhook-id'), expect: 'rejected', messageIncludes: MESSAGES.missing('webhook-id') },
    {
      name: 'missing webhook-timestamp', description: 'No webhook-timestamp header', reference: ALL,
      ...base, ...without('webhook-timestamp'), expect: 'rejected', messageIncludes: MESSAGES.missing('webhook-timestamp'),
    },
    {
      name: 'missing webhook-signature', description: 'No webhook-signature header', reference: ALL,
      ...base, ...without('webhook-signature'), expect: 'rejected', messageIncludes: MESSAGES.missing('webhook-signature'),
    },
    {
      name: 'timestamp "hello"', description: 'webhook-timestamp is not a number', reference: ['JavaScript', 'Python', 'Ruby'],
      ...base, headers: headers(MSG, 'hello', good), expect: 'rejected', messageIncludes: MESSAGES.notSeconds,
    },
    { name: 'garbage signature', description: 'v1,dawfeoifkpqwoekfpqoekf', reference: ['JavaScript', 'PHP'], ...noMatch, ...signed('v1,dawfeoifkpqwoekfpqoekf') },
    { name: 'one character off', description: 'The signing example with its last character changed', reference: ['Python'], ...noMatch, ...signed('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=') },
    { name: 'truncated and altered', description: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLawdd', reference: ['Ruby', 'C#'], ...noMatch, ...signed('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLawdd') },
    { name: 'another key\'s signature', description: 'A well-formed v1 signature that does not match', reference: ['Go'], ...noMatch, ...signed(wrongV1) },
    { name: 'partial signature', description: 'The header cut to its first 8 characters', reference: ['JavaScript'], ...noMatch, ...signed(good.slice(0, 8)) },
    { name: 'empty v1 signature', description: 'webhook-signature is "v1,"', reference: ['JavaScript', 'Go'], ...noMatch, ...signed('v1,') },
    { name: 'only a v2 signature', description: 'The matching signature, labelled v2: only v1 counts', reference: ['Java'], ...noMatch, ...signed(good.replace('v1,', 'v2,')) },
    { name: 'no version separator', description: 'webhook-signature is "invalid_signature"', reference: ['Java'], ...noMatch, ...signed('invalid_signature') },
    { name: 'v1 but not base64', description: 'webhook-signature is "v1,invalid_signature"', reference: ['Java'], ...noMatch, ...signed('v1,invalid_signature') },
    {
      name: 'old timestamp', description: 'Signed 301 s before now', reference: ALL,
      ...base, headers: headers(MSG, NOW - 301, sign(RAW, MSG, NOW - 301, PAYLOAD)), expect: 'rejected', messageIncludes: MESSAGES.tooOld,
    },
    {
      name: 'new timestamp', description: 'Signed 301 s after now', reference: ALL,
      ...base, headers: headers(MSG, NOW + 301, sign(RAW, MSG, NOW + 301, PAYLOAD)), expect: 'rejected', messageIncludes: MESSAGES.inTheFuture,
    },
    {
      name: 'timestamp of 2000', description: 'webhook-timestamp changed to 2000-01-01 after signing', reference: ['Go'],
      ...base, headers: headers(MSG, 946_684_800, good), expect: 'rejected', messageIncludes: MESSAGES.tooOld,
    },
    { name: 'empty secret', description: 'The secret is ""', reference: ALL, ...base, secret: '', expect: 'rejected', messageIncludes: MESSAGES.emptySecret },
    {
      name: 'whsec_ and nothing', description: 'The secret is "whsec_"', reference: ['JavaScript', 'Python', 'Ruby', 'PHP', 'C#', 'Go'],
      ...base, secret: 'whsec_', expect: 'rejected', messageIncludes: MESSAGES.emptySecret,
    },
  ];
  return cases.map((c) => ({ ...c, name: `reference: ${c.name}` }));
}

/**
 * Where Cambio's clients are deliberately more lenient than the reference library, which takes the
 * secret exactly as given and so refuses these. Written to vectors.json like the others (every
 * client checks them), but not among makeVectors(), whose every verdict the reference library
 * reaches (test/unit/conformance-vectors.test.ts).
 */
function lenientCases(): Case[] {
  return [
    {
      name: 'secret with whitespace around it',
      description:
        'The secret as read from an env file or pasted: spaces before whsec_ and a CRLF after it. Every client trims it, then takes off whsec_ ' +
        '(the reference library refuses it)',
      secret: `  ${SECRET}\r\n`, expect: 'event', eventType: 'deposit.completed',
    },
  ];
}

function complete(cases: Case[]): Vector[] {
  return cases.map(({ name, description, reference, expect, eventType, messageIncludes, ...rest }) => ({
    name,
    description,
    ...(reference ? { reference } : {}),
    secret: rest.secret ?? SECRET,
    headers: rest.headers ?? headers(ID, NOW, sign(SECRET, ID, NOW, rest.body ?? body)),
    body: rest.body ?? body,
    now: rest.now ?? NOW,
    expect,
    valid: expect !== 'rejected',
    ...(eventType ? { eventType } : {}),
    ...(messageIncludes ? { messageIncludes } : {}),
  }));
}

/** The vectors the reference library agrees with: Cambio's own cases and the reference libraries' ones. */
export function makeVectors(): Vector[] {
  return complete([...cambioCases(), ...referenceCases()]);
}

/** The vectors where the clients accept what the reference library refuses (see lenientCases). */
export function makeLenientVectors(): Vector[] {
  return complete(lenientCases());
}

export function vectorsFile(): string {
  return `${JSON.stringify(
    {
      about:
        'Standard Webhooks deliveries signed by the npm standardwebhooks library, Cambio\'s own cases and every verification case of the reference libraries\' tests; every official Cambio client verifies exactly the ones whose expect is not "rejected", and returns an event for "event", an unknown event for "unknown". Made by clients/conformance/make-vectors.ts.',
      toleranceSeconds: 300,
      vectors: [...makeVectors(), ...makeLenientVectors()],
    },
    null,
    2,
  )}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('./vectors.json', import.meta.url), vectorsFile());
  console.log('wrote clients/conformance/vectors.json');
}
