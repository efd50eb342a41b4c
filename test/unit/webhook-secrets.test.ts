import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KmsSecretSealer } from '#adapters/webhook-secrets/kms-sealer';
import { LocalSecretSealer } from '#adapters/webhook-secrets/local-sealer';
import { webhookSecretSealerFrom } from '#adapters/webhook-secrets/from-settings';
import { parseSettings } from '#functions/settings/schema';
import { SLICES } from '#functions/settings/functions';
import { cachingOpens, openSigningSecret, type SealingContext, type WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import { newWebhookSecret } from '#functions/webhooks/webhooks';
import { runIdempotently, type BeginOutcome, type IdempotencyScope, type IdempotencyStore, type StoredResponse } from '#http/idempotency';
import { sealingReplayedSecrets } from '../../functions/handlers/webhooks/sealed-replays.ts';
import { STAGES } from '../../config/stages.ts';

const LOCAL_KEY = STAGES.local.functionEnvironment.LOCAL_WEBHOOK_SEALING_KEY!;
const KEY_ARN = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';
const context: SealingContext = { companyId: 'cmp_01JA0000000000000000000000', webhookId: 'whk_01JA0000000000000000000000', purpose: 'webhook-signing' };
/** What KMS must be given with `context`'s secret, both ways: a ciphertext opens only for the webhook it was sealed for. */
const ENCRYPTION_CONTEXT = { purpose: 'webhook-signing', companyId: context.companyId, webhookId: context.webhookId };

describe('LocalSecretSealer (AES-256-GCM)', () => {
  const sealer = new LocalSecretSealer(LOCAL_KEY);

  it('seals into a local: value that holds neither the secret nor its key bytes, and opens it for the same context', async () => {
    const secret = newWebhookSecret();

    const sealed = await sealer.seal(secret, context);

    expect(sealed).toMatch(/^local:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
    expect(await sealer.open(sealed, context)).toBe(secret);
    // A fresh IV per seal: the same secret never seals to the same value twice.
    expect(await sealer.seal(secret, context)).not.toBe(sealed);
  });

  it.each([
    ['another webhook', { ...context, webhookId: 'whk_01JB0000000000000000000000' }],
    ['another company', { ...context, companyId: 'cmp_01JB0000000000000000000000' }],
    ['another purpose', { ...context, purpose: 'idempotent-replay' as const }],
  ])('does not open a value sealed for one webhook when asked for %s', async (_, other) => {
    const sealed = await sealer.seal(newWebhookSecret(), context);

    await expect(sealer.open(sealed, other)).rejects.toThrow('does not open for this webhook');
  });

  it('refuses a tampered value, another key, and another scheme', async () => {
    const sealed = await sealer.seal(newWebhookSecret(), context);
    const bytes = Buffer.from(sealed.slice('local:'.length), 'base64');
    bytes[bytes.length - 1]! ^= 1;

    await expect(sealer.open(`local:${bytes.toString('base64')}`, context)).rejects.toThrow('does not open');
    await expect(new LocalSecretSealer('00'.repeat(32)).open(sealed, context)).rejects.toThrow('does not open');
    await expect(sealer.open('kms:AAAA', context)).rejects.toThrow('Not a locally sealed webhook secret');
    expect(() => new LocalSecretSealer('abc')).toThrow('64 hex digits');
  });
});

describe('KmsSecretSealer', () => {
  const kms = mockClient(KMSClient);
  beforeEach(() => kms.reset());
  afterEach(() => kms.reset());

  it('encrypts under the configured key with the company, webhook and purpose as the encryption context, and stores kms: + base64', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('ciphertext-blob'), KeyId: KEY_ARN });

    const sealed = await new KmsSecretSealer(KEY_ARN).seal('whsec_c2VjcmV0', context);

    expect(sealed).toBe(`kms:${Buffer.from('ciphertext-blob').toString('base64')}`);
    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ARN, Plaintext: Buffer.from('whsec_c2VjcmV0'), EncryptionContext: ENCRYPTION_CONTEXT });
  });

  it('decrypts with the key named and the same encryption context, so KMS refuses a ciphertext moved to another webhook', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('whsec_c2VjcmV0'), KeyId: KEY_ARN });
    const sealed = `kms:${Buffer.from('ciphertext-blob').toString('base64')}`;

    expect(await new KmsSecretSealer(KEY_ARN).open(sealed, context)).toBe('whsec_c2VjcmV0');

    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ARN, CiphertextBlob: Buffer.from('ciphertext-blob'), EncryptionContext: ENCRYPTION_CONTEXT });
  });

  it('passes KMS refusals on and never sends a value of another scheme to KMS', async () => {
    kms.on(DecryptCommand).rejects(Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' }));
    const sealer = new KmsSecretSealer(KEY_ARN);

    await expect(sealer.open('kms:AAAA', context)).rejects.toThrow('InvalidCiphertextException');
    await expect(sealer.open('local:AAAA', context)).rejects.toThrow('Not a KMS-sealed webhook secret');
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
  });
});

/** As the create-webhook function and the sender do at cold start: their sealer slice, parsed from the environment. */
const webhookSecretSealerFromEnv = () => webhookSecretSealerFrom(parseSettings(SLICES.webhookSealer, process.env));

describe('webhookSecretSealerFrom', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('picks KMS with its key, the local key on the local stage only, and refuses anything else', () => {
    Object.assign(process.env, { STAGE: 'production', WEBHOOK_SECRET_SEALER: 'kms', WEBHOOK_SECRET_KMS_KEY_ID: KEY_ARN });
    expect(webhookSecretSealerFromEnv()).toBeInstanceOf(KmsSecretSealer);

    Object.assign(process.env, { WEBHOOK_SECRET_SEALER: 'local', LOCAL_WEBHOOK_SEALING_KEY: LOCAL_KEY, STAGE: 'local' });
    expect(webhookSecretSealerFromEnv()).toBeInstanceOf(LocalSecretSealer);
    process.env.STAGE = 'production';
    expect(() => webhookSecretSealerFromEnv()).toThrow('local stage only');

    process.env.WEBHOOK_SECRET_SEALER = 'plain';
    expect(() => webhookSecretSealerFromEnv()).toThrow('must be kms or local');
    process.env.WEBHOOK_SECRET_SEALER = 'kms';
    delete process.env.WEBHOOK_SECRET_KMS_KEY_ID;
    expect(() => webhookSecretSealerFromEnv()).toThrow('WEBHOOK_SECRET_KMS_KEY_ID');
  });
});

/** A sealer that counts opens and opens only what it sealed for that exact context. */
function countingSealer() {
  const calls: SealingContext[] = [];
  const sealer: WebhookSecretSealer = {
    seal: async (secret, ctx) => `test:${JSON.stringify([ctx, secret])}`,
    open: async (sealed, ctx) => {
      calls.push(ctx);
      const [sealedFor, secret] = JSON.parse(sealed.slice('test:'.length)) as [SealingContext, string];
      if (JSON.stringify(sealedFor) !== JSON.stringify(ctx)) throw new Error('wrong context');
      return secret;
    },
  };
  return { sealer, calls };
}

describe('openSigningSecret', () => {
  it('returns a legacy plain secret as it is, without asking the sealer', async () => {
    const { sealer, calls } = countingSealer();

    expect(await openSigningSecret(sealer, { companyId: context.companyId, id: context.webhookId, sealedSecret: 'whsec_bGVnYWN5' })).toBe('whsec_bGVnYWN5');
    expect(calls).toEqual([]);
  });
});

describe('cachingOpens', () => {
  it('opens each sealed value once for a burst, concurrent opens included', async () => {
    const { sealer, calls } = countingSealer();
    const cached = cachingOpens(sealer);
    const sealed = await sealer.seal('whsec_b25l', context);

    const opened = await Promise.all(Array.from({ length: 10 }, () => cached.open(sealed, context)));

    expect(new Set(opened)).toEqual(new Set(['whsec_b25l']));
    expect(calls).toHaveLength(1);
  });

  it('keys on the context too: a value cached for one webhook is not handed to another', async () => {
    const { sealer, calls } = countingSealer();
    const cached = cachingOpens(sealer);
    const sealed = await sealer.seal('whsec_b25l', context);
    await cached.open(sealed, context);

    await expect(cached.open(sealed, { ...context, webhookId: 'whk_01JB0000000000000000000000' })).rejects.toThrow('wrong context');
    expect(calls).toHaveLength(2);
  });

  it('keeps at most maxEntries (least recently used leave first), forgets after maxAgeMs, and does not remember a failure', async () => {
    const { sealer, calls } = countingSealer();
    let clock = 0;
    const cached = cachingOpens(sealer, { maxEntries: 2, maxAgeMs: 1_000 }, () => clock);
    const contexts = ['whk_A', 'whk_B', 'whk_C'].map((webhookId) => ({ ...context, webhookId }));
    const [a, b, c] = await Promise.all(contexts.map((ctx) => sealer.seal(`whsec_${ctx.webhookId}`, ctx)));

    await cached.open(a!, contexts[0]!);
    await cached.open(b!, contexts[1]!);
    await cached.open(a!, contexts[0]!); // A is now the most recently used
    await cached.open(c!, contexts[2]!); // evicts B
    await cached.open(a!, contexts[0]!);
    expect(calls.map((ctx) => ctx.webhookId)).toEqual(['whk_A', 'whk_B', 'whk_C']);
    await cached.open(b!, contexts[1]!);
    expect(calls).toHaveLength(4);

    clock = 1_000;
    await cached.open(b!, contexts[1]!);
    expect(calls).toHaveLength(5);

    const failing = cachingOpens({ seal: sealer.seal, open: async () => Promise.reject(new Error('KMS down')) });
    await expect(failing.open(a!, contexts[0]!)).rejects.toThrow('KMS down');
    await expect(failing.open(a!, contexts[0]!)).rejects.toThrow('KMS down');
  });
});

describe('sealingReplayedSecrets (POST /v1/webhooks with an Idempotency-Key)', () => {
  /** An idempotency store in memory: remembers what complete() stored and replays it. */
  function memoryStore() {
    const stored = new Map<string, StoredResponse>();
    const store: IdempotencyStore = {
      begin: async (scope): Promise<BeginOutcome> => {
        const response = stored.get(scope.key);
        return response ? { kind: 'replay', response } : { kind: 'started' };
      },
      complete: async (scope, response) => Boolean(stored.set(scope.key, response)),
      release: async (scope) => void stored.delete(scope.key),
    };
    return { store, stored };
  }
  const scope: IdempotencyScope = { companyId: context.companyId, key: 'create-hook-1', fingerprint: 'f', claim: 'c' };
  const sealer = new LocalSecretSealer(LOCAL_KEY);

  it('stores the answer with the secret sealed for replay, and replays the first answer byte for byte', async () => {
    const { store, stored } = memoryStore();
    const wrapped = sealingReplayedSecrets(store, sealer);
    const secret = newWebhookSecret();
    const body = JSON.stringify({ success: true, data: { id: context.webhookId, url: 'https://example.com/h', secret, createdAt: 'x' } });

    await wrapped.complete(scope, { statusCode: 201, body }, new Date());
    const replay = await wrapped.begin(scope, new Date());

    const kept = stored.get(scope.key)!.body;
    expect(kept).not.toContain(secret.slice('whsec_'.length));
    expect(Object.keys(JSON.parse(kept).data)).toEqual(['id', 'url', 'sealedSecret', 'createdAt']);
    // Sealed for the replay alone: it does not open as the webhook's signing secret.
    const sealedSecret = JSON.parse(kept).data.sealedSecret as string;
    await expect(sealer.open(sealedSecret, context)).rejects.toThrow();
    expect(replay).toEqual({ kind: 'replay', response: { statusCode: 201, body } });
  });

  it('answers the endpoint it made even when that answer cannot be kept for replay (the sealing service down), and logs it', async () => {
    const { store, stored } = memoryStore();
    const sealingDown: WebhookSecretSealer = {
      seal: async () => {
        throw Object.assign(new Error('KMS is down'), { name: 'KMSInternalException' });
      },
      open: (sealed, sealedFor) => sealer.open(sealed, sealedFor),
    };
    const lines: Record<string, unknown>[] = [];
    const log = { warn: () => {}, error: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, ...fields }) };
    const body = JSON.stringify({ success: true, data: { id: context.webhookId, url: 'https://example.com/h', secret: newWebhookSecret(), createdAt: 'x' } });

    // The endpoint exists once execute returns: a 500 now would send the caller to retry and make a second.
    const answer = await runIdempotently(sealingReplayedSecrets(store, sealingDown), scope, async () => ({ statusCode: 201, body }), log);

    expect(answer).toEqual({ statusCode: 201, body, replayed: false });
    expect(stored.has(scope.key)).toBe(false);
    expect(lines).toEqual([expect.objectContaining({ message: expect.stringContaining('answer not stored'), statusCode: 201, error: 'KMSInternalException' })]);
  });

  it('leaves answers without a secret (refusals) as they are', async () => {
    const { store, stored } = memoryStore();
    const body = JSON.stringify({ success: false, error: { code: 'LIMIT_REACHED', message: 'm', details: { limit: 10 } } });

    await sealingReplayedSecrets(store, sealer).complete(scope, { statusCode: 422, body }, new Date());

    expect(stored.get(scope.key)!.body).toBe(body);
  });
});
