import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { secretsManagerApiKey } from '#adapters/provider-secret';

const SECRET_ID = 'cambio/trongrid-api-key';
const KEY = '5f0c3b3e-7a6e-4d1b-9c52-2f1e0c7a9d11';
const secrets = mockClient(SecretsManagerClient);
const client = new SecretsManagerClient({ region: 'us-east-1' });

beforeEach(() => {
  secrets.reset();
});

async function message(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a rejection');
  return `${error.message}\n${error.stack}\n${String(error.cause ?? '')}`;
}

describe('secretsManagerApiKey', () => {
  it('reads a raw key from the SecretString of the secret asked for', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: SECRET_ID }).resolves({ SecretString: `${KEY}\n` });

    await expect(secretsManagerApiKey(SECRET_ID, client)()).resolves.toBe(KEY);
  });

  it('reads the apiKey field of a JSON secret', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ apiKey: KEY, note: 'mainnet' }) });

    await expect(secretsManagerApiKey(SECRET_ID, client)()).resolves.toBe(KEY);
  });

  it('reuses the key for the TTL, shares one read between concurrent callers, and reads again after it', async () => {
    let nowMs = 0;
    secrets.on(GetSecretValueCommand).resolvesOnce({ SecretString: KEY }).resolves({ SecretString: 'rotated-key' });
    const apiKey = secretsManagerApiKey(SECRET_ID, client, { ttlMs: 300_000, now: () => nowMs });

    const concurrent = await Promise.all([apiKey(), apiKey(), apiKey()]);
    nowMs = 299_999;
    const withinTtl = await apiKey();
    nowMs = 300_000;
    const afterTtl = await apiKey();

    expect(concurrent).toEqual([KEY, KEY, KEY]);
    expect(withinTtl).toBe(KEY);
    expect(afterTtl).toBe('rotated-key');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('does not cache a failed read', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('ThrottlingException')).resolves({ SecretString: KEY });
    const apiKey = secretsManagerApiKey(SECRET_ID, client);

    await expect(apiKey()).rejects.toThrow('ThrottlingException');
    await expect(apiKey()).resolves.toBe(KEY);
  });

  it.each([
    ['JSON that does not parse', `{"apiKey": "${KEY}"`],
    ['JSON without apiKey', JSON.stringify({ key: KEY })],
    ['a key with a line break inside', `${KEY.slice(0, 8)}\n${KEY.slice(8)}`],
  ])('refuses %s without quoting the secret', async (_, secretString) => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: secretString });

    const text = await message(secretsManagerApiKey(SECRET_ID, client)());

    expect(text).toContain(SECRET_ID);
    expect(text).not.toContain(KEY.slice(8, 20));
  });

  it('refuses a binary secret', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });

    await expect(secretsManagerApiKey(SECRET_ID, client)()).rejects.toThrow(/no SecretString/);
  });
});
