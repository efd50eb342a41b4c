import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type Environment = 'sandbox' | 'production';

/** Key ids say which environment they belong to, as Stripe's do, so a live key pasted into a
 * sandbox config is visible at a glance. */
const KEY_PREFIX: Record<Environment, string> = { sandbox: 'ck_test_', production: 'ck_live_' };
const SECRET_PREFIX: Record<Environment, string> = { sandbox: 'cs_test_', production: 'cs_live_' };

export interface ApiKeyRecord {
  keyId: string;
  companyId: string;
  environment: Environment;
  secretHash: string;
  createdAt: string;
}

export interface IssuedCredentials {
  apiKey: string;
  apiSecret: string;
  record: ApiKeyRecord;
}

/**
 * A secret of 256 random bits needs no slow password hash: nobody can guess it, so a plain
 * SHA-256 is enough to make a leaked table useless for calling the API.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function issueCredentials(companyId: string, environment: Environment, now: Date): IssuedCredentials {
  const apiKey = KEY_PREFIX[environment] + randomBytes(18).toString('base64url');
  const apiSecret = SECRET_PREFIX[environment] + randomBytes(32).toString('base64url');
  return {
    apiKey,
    apiSecret,
    record: { keyId: apiKey, companyId, environment, secretHash: hashSecret(apiSecret), createdAt: now.toISOString() },
  };
}

// Compared against when the key id is unknown, so an unknown key costs the same time as a
// wrong secret and the two cannot be told apart.
const UNKNOWN_KEY_HASH = hashSecret(randomBytes(32).toString('base64url'));

/** Constant-time check of a presented secret against the stored hash (or the dummy when the key
 * is unknown). Returns the record only when both the key and the secret are right. */
export function verifyCredentials(record: ApiKeyRecord | null, presentedSecret: string): ApiKeyRecord | null {
  const expected = Buffer.from(record?.secretHash ?? UNKNOWN_KEY_HASH, 'hex');
  const presented = Buffer.from(hashSecret(presentedSecret), 'hex');
  const matches = timingSafeEqual(expected, presented);
  return matches && record ? record : null;
}

/** Cheap shape check before any read: a request with a malformed key is refused without I/O. */
export function looksLikeApiKey(value: string): boolean {
  return /^ck_(test|live)_[A-Za-z0-9_-]{24}$/.test(value);
}

export interface ApiKeyLookup {
  findApiKey(keyId: string): Promise<ApiKeyRecord | null>;
}

/** Resolves a key and secret pair to its record, or null for any failure: the caller must not be
 * able to tell an unknown key from a wrong secret, so there is one outcome for both. */
export async function authenticate(
  lookup: ApiKeyLookup,
  apiKey: string | undefined,
  apiSecret: string | undefined,
): Promise<ApiKeyRecord | null> {
  if (!apiKey || !apiSecret || apiSecret.length > 256) return null;
  const record = looksLikeApiKey(apiKey) ? await lookup.findApiKey(apiKey) : null;
  return verifyCredentials(record, apiSecret);
}
