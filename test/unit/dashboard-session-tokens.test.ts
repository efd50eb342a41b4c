import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { KMS_BINDING, LOCAL_BINDING, sessionTokenSealerFrom } from '#adapters/dashboard-session-sealer';
import { dashboardSessionItem } from '#adapters/dynamo/items/dashboard-session';
import { KmsSecretSealer } from '#adapters/webhook-secrets/kms-sealer';
import { LocalSecretSealer } from '#adapters/webhook-secrets/local-sealer';
import {
  identityTokenOf,
  liveSessionOf,
  openSession,
  openTokens,
  sealingContextOf,
  sessionKeyOf,
  type DashboardSession,
  type DashboardSessionStore,
  type SessionSealingContext,
  type SessionTokenSealer,
} from '#functions/people/dashboard-sessions';
import type { SessionTokens } from '#functions/people/identity';
import { parseSettings } from '#functions/settings/schema';
import { SLICES } from '#functions/settings/functions';
import { STAGES } from '../../config/stages.ts';

/**
 * A dashboard session's Cognito tokens at rest (functions/people/dashboard-sessions.ts): sealed
 * together for the session's key by the stage's sealer for secrets at rest, under a purpose of
 * their own, so the table's export and backups hold no token in the clear; opened only by the
 * routes that act as the person, never on the session authorizer's path.
 */
const LOCAL_KEY = STAGES.local.functionEnvironment.LOCAL_WEBHOOK_SEALING_KEY!;
const KEY_ARN = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';
const ACCESS = 'eyJhbGciOiJSUzI1NiJ9.access.signature';
const REFRESH = 'eyJjdHkiOiJKV1QifQ.refresh.token';
const signIn: SessionTokens = { accessToken: ACCESS, refreshToken: REFRESH, expiresInSeconds: 3600, personId: 'person-1', sessionId: 'jti-1' };

function memoryStore() {
  const items = new Map<string, DashboardSession>();
  const store: DashboardSessionStore = {
    save: async (key, session) => void items.set(key, { ...session }),
    renewAccess: async (key, sealedTokens, accessExpiresAt) => {
      const session = items.get(key);
      if (session) items.set(key, { ...session, sealedTokens, accessExpiresAt });
    },
    find: async (key) => items.get(key) ?? null,
    remove: async (key) => void items.delete(key),
  };
  return { store, items };
}

/** The local sealer, counting its calls. */
function countingSealer() {
  const inner = new LocalSecretSealer<SessionSealingContext>(LOCAL_KEY, LOCAL_BINDING);
  const calls = { seal: 0, open: 0 };
  const sealer: SessionTokenSealer = {
    seal: (plain, context) => (calls.seal++, inner.seal(plain, context)),
    open: (sealed, context) => (calls.open++, inner.open(sealed, context)),
  };
  return { sealer, calls };
}

const noSignOuts = { lastOf: async () => null };

describe('a dashboard session', () => {
  it('is stored with both tokens sealed for its key, neither in the clear, in one sealing', async () => {
    const { store, items } = memoryStore();
    const { sealer, calls } = countingSealer();

    const { cookieValue } = await openSession({ sessions: store, sealer }, signIn);

    const stored = items.get(sessionKeyOf(cookieValue))!;
    expect(stored.sealedTokens).toMatch(/^local:/);
    expect(JSON.stringify(stored)).not.toContain(ACCESS);
    expect(JSON.stringify(stored)).not.toContain(REFRESH);
    expect(calls).toEqual({ seal: 1, open: 0 });
    expect(await openTokens(sealer, sessionKeyOf(cookieValue), stored)).toEqual({ accessToken: ACCESS, refreshToken: REFRESH });
  });

  it("is read by the session authorizer's path without opening its tokens", async () => {
    const { store } = memoryStore();
    const { sealer, calls } = countingSealer();
    const { cookieValue } = await openSession({ sessions: store, sealer }, signIn);

    expect(await liveSessionOf({ sessions: store, signOuts: noSignOuts }, cookieValue)).toMatchObject({ personId: 'person-1', sessionId: 'jti-1' });
    expect(calls.open).toBe(0);
  });

  it('gives a route its access token with one opening, and renews an expired one from the refresh token, sealing the pair again', async () => {
    const { store, items } = memoryStore();
    const { sealer, calls } = countingSealer();
    const opened = new Date('2026-01-01T00:00:00Z');
    const { cookieValue } = await openSession({ sessions: store, sealer }, signIn, opened);
    const refreshedWith: string[] = [];
    const refresh = async (refreshToken: string): Promise<SessionTokens> => {
      refreshedWith.push(refreshToken);
      return { ...signIn, accessToken: 'eyJhbGciOiJSUzI1NiJ9.renewed.signature', refreshToken: null };
    };

    expect(await identityTokenOf({ sessions: store, sealer, refresh }, cookieValue, { now: opened })).toBe(ACCESS);
    expect(calls).toEqual({ seal: 1, open: 1 });

    const later = new Date(opened.getTime() + 2 * 3600_000);
    expect(await identityTokenOf({ sessions: store, sealer, refresh }, cookieValue, { now: later })).toBe('eyJhbGciOiJSUzI1NiJ9.renewed.signature');
    expect(refreshedWith).toEqual([REFRESH]);
    expect(calls).toEqual({ seal: 2, open: 2 });
    const renewed = items.get(sessionKeyOf(cookieValue))!;
    expect(JSON.stringify(renewed)).not.toContain('renewed');
    expect(await openTokens(sealer, sessionKeyOf(cookieValue), renewed)).toEqual({ accessToken: 'eyJhbGciOiJSUzI1NiJ9.renewed.signature', refreshToken: REFRESH });
    expect(renewed.accessExpiresAt).toBe(Math.floor(later.getTime() / 1000) + 3600);
  });

  it("does not open another session's sealed tokens copied onto it", async () => {
    const { store, items } = memoryStore();
    const { sealer } = countingSealer();
    const first = await openSession({ sessions: store, sealer }, signIn);
    const second = await openSession({ sessions: store, sealer }, { ...signIn, personId: 'person-2', sessionId: 'jti-2' });
    const copied = { ...items.get(sessionKeyOf(second.cookieValue))!, sealedTokens: items.get(sessionKeyOf(first.cookieValue))!.sealedTokens };
    items.set(sessionKeyOf(second.cookieValue), copied);

    await expect(identityTokenOf({ sessions: store, sealer, refresh: async () => signIn }, second.cookieValue)).rejects.toThrow('does not open for this session');
  });
});

describe('the sessions sealer', () => {
  const kms = mockClient(KMSClient);
  afterEach(() => kms.reset());
  const context = sealingContextOf(sessionKeyOf('cookie'));

  it('binds KMS ciphertexts to the purpose dashboard-session and the session key', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('blob') });
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('tokens') });
    const sealer = new KmsSecretSealer<SessionSealingContext>(KEY_ARN, undefined, KMS_BINDING);
    const encryptionContext = { purpose: 'dashboard-session', sessionKey: context.sessionKey };

    const sealed = await sealer.seal('tokens', context);
    expect(await sealer.open(sealed, context)).toBe('tokens');

    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ARN, Plaintext: Buffer.from('tokens'), EncryptionContext: encryptionContext });
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: encryptionContext });
  });

  it("locally, opens neither a webhook secret's sealed value nor one of another session, with the same key", async () => {
    const sessions = new LocalSecretSealer<SessionSealingContext>(LOCAL_KEY, LOCAL_BINDING);
    const webhooks = new LocalSecretSealer(LOCAL_KEY);
    const webhook = { companyId: 'cmp_1', webhookId: 'whk_1', purpose: 'webhook-signing' as const };

    await expect(sessions.open(await sessions.seal('tokens', context), sealingContextOf(sessionKeyOf('other')))).rejects.toThrow('Sealed session token does not open for this session');
    await expect(sessions.open(await webhooks.seal('whsec_x', webhook), context)).rejects.toThrow('does not open');
    await expect(webhooks.open(await sessions.seal('tokens', context), webhook)).rejects.toThrow('Sealed webhook secret does not open for this webhook');
  });

  it("is the stage's sealer for secrets at rest: KMS deployed, the local key on the local stage only", () => {
    const settings = (env: Record<string, string>) => parseSettings(SLICES.webhookSealer, env);
    expect(sessionTokenSealerFrom(settings({ STAGE: 'production', WEBHOOK_SECRET_SEALER: 'kms', WEBHOOK_SECRET_KMS_KEY_ID: KEY_ARN }))).toBeInstanceOf(KmsSecretSealer);
    expect(sessionTokenSealerFrom(settings({ STAGE: 'local', WEBHOOK_SECRET_SEALER: 'local', LOCAL_WEBHOOK_SEALING_KEY: LOCAL_KEY }))).toBeInstanceOf(LocalSecretSealer);
    expect(() => sessionTokenSealerFrom(settings({ STAGE: 'sandbox', WEBHOOK_SECRET_SEALER: 'local', LOCAL_WEBHOOK_SEALING_KEY: LOCAL_KEY }))).toThrow('local stage only');
  });
});

describe('the stored session item', () => {
  const session: DashboardSession = { personId: 'p', sessionId: 'j', authTime: 1, openedAt: 1, expiresAt: 9, sealedTokens: 'local:AAAA', accessExpiresAt: 5 };

  it('holds the sealed tokens and no token attribute', () => {
    const item = dashboardSessionItem.toItem('key', session);
    expect(item).not.toHaveProperty('accessToken');
    expect(item).not.toHaveProperty('refreshToken');
    expect(item).toMatchObject({ sealedTokens: 'local:AAAA', accessExpiresAt: 5, ttl: 9 });
  });

  it('reads an item written before sealing (tokens in the clear) as no session', () => {
    const { sealedTokens: _, ...legacy } = dashboardSessionItem.toItem('key', session);
    expect(dashboardSessionItem.fromItem({ ...legacy, accessToken: ACCESS, refreshToken: REFRESH })).toBeNull();
  });
});
