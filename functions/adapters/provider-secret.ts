import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsClient } from './aws-clients.ts';

/**
 * A chain provider's secret from AWS Secrets Manager: TronGrid's API key (TRON-PRO-API-KEY, for
 * TronGridChain's `apiKey`), an EVM provider's URL with its key in it.
 * The key is never logged and never put into an error message: messages name the secret id only.
 */

export interface SecretsManagerApiKeyOptions {
  /** How long a key read is reused; a rotated key is picked up within this. */
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60_000;
/** Printable ASCII without spaces, the only thing an HTTP header value can carry unchanged. */
const HEADER_SAFE_PATTERN = /^[\x21-\x7e]+$/;

/** Created on first use and kept for the container's life, like the other SDK clients. */
let defaultClient: SecretsManagerClient | undefined;

/**
 * A provider that reads `secretId` once per `ttlMs` (default 5 minutes). The SecretString is either
 * the raw key or JSON `{"apiKey": "..."}`. Concurrent callers share one read; a failed read is not
 * cached, so the next call tries again.
 */
export function secretsManagerApiKey(
  secretId: string,
  client?: SecretsManagerClient,
  { ttlMs = DEFAULT_TTL_MS, now = Date.now }: SecretsManagerApiKeyOptions = {},
): () => Promise<string> {
  let cached: { key: string; readAtMs: number } | undefined;
  let inFlight: Promise<string> | undefined;

  const read = async (): Promise<string> => {
    const secrets = client ?? (defaultClient ??= awsClient(new SecretsManagerClient({})));
    const output = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    const key = parseSecret(output.SecretString, secretId);
    cached = { key, readAtMs: now() };
    return key;
  };

  return () => {
    if (cached && now() - cached.readAtMs < ttlMs) return Promise.resolve(cached.key);
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

function parseSecret(secretString: string | undefined, secretId: string): string {
  if (secretString === undefined) throw new Error(`Secret ${secretId} has no SecretString (binary secrets are not supported)`);
  const trimmed = secretString.trim();
  let key: unknown = trimmed;
  if (trimmed.startsWith('{')) {
    try {
      key = (JSON.parse(trimmed) as Record<string, unknown>).apiKey;
    } catch {
      // JSON.parse's message quotes the input, which is the secret: say only where it failed.
      throw new Error(`Secret ${secretId} starts with "{" but is not valid JSON`);
    }
    if (typeof key !== 'string') throw new Error(`Secret ${secretId} is JSON without an "apiKey" string`);
    key = key.trim();
  }
  if (typeof key !== 'string' || !HEADER_SAFE_PATTERN.test(key)) {
    throw new Error(`Secret ${secretId} does not hold a usable API key (empty, or characters an HTTP header cannot carry)`);
  }
  return key;
}
