import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

export type Environment = 'sandbox' | 'production';

/** Key ids say which environment they belong to, as Stripe's do, so a live key pasted into a
 * sandbox config is visible at a glance. */
const KEY_PREFIX: Record<Environment, string> = { sandbox: 'ck_test_', production: 'ck_live_' };
const SECRET_PREFIX: Record<Environment, string> = { sandbox: 'cs_test_', production: 'cs_live_' };

export type ApiKeyStatus = 'active' | 'revoked';

/**
 * What a key may do, as Stripe's restricted keys: `full` calls every route; `read` only reads
 * (GET), so a key given to a reporting job or a BI tool cannot move money or change webhooks if it
 * * leaks. A key stored without one has `full`.
 */
export const API_KEY_ACCESS = ['full', 'read'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];

/** A key's allowed IPs, as Stripe lets a key be limited to its servers' addresses: each an IPv4
 * or IPv6 address or CIDR block; null for any address. */
export const MAX_ALLOWED_IPS = 20;

/** An allowed-IPs entry in its canonical form (`203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`),
 * or null when it is not an address or a CIDR block. */
export function allowedIpEntry(entry: string): string | null {
  const [address = '', prefix, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  if (prefix === undefined) return address;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  return bits >= 0 && bits <= (version === 4 ? 32 : 128) ? `${address}/${bits}` : null;
}

/** Whether a request from `sourceIp` may use a key with these allowed IPs (null: any). An IPv4
 * address seen as IPv6 (`::ffff:203.0.113.7`) is the IPv4 one. */
export function ipAllowed(allowedIps: readonly string[] | null, sourceIp: string): boolean {
  if (!allowedIps || allowedIps.length === 0) return true;
  const ip = sourceIp.startsWith('::ffff:') && isIP(sourceIp.slice(7)) === 4 ? sourceIp.slice(7) : sourceIp;
  const version = isIP(ip);
  if (version === 0) return false;
  const list = new BlockList();
  for (const entry of allowedIps) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(ip, version === 6 ? 'ipv6' : 'ipv4');
}

/** Whether a key with `access` may call a route with this HTTP method. */
export function accessAllows(access: ApiKeyAccess, method: string): boolean {
  return access === 'full' || method === 'GET' || method === 'HEAD';
}

/**
 * A company holds several keys (../shared/dashboard.md, Integrations → API keys). A key stored
 * without a name, status or creator reads as an active `Default key`, so it works without a
 * migration.
 */
export interface ApiKeyRecord {
  keyId: string;
  companyId: string;
  environment: Environment;
  name: string;
  status: ApiKeyStatus;
  access: ApiKeyAccess;
  /** Only requests from these addresses may use the key (ipAllowed); null for any. */
  allowedIps: string[] | null;
  secretHash: string;
  /** The secret before the last roll, valid until `previousSecretExpiresAt` so an integrator can
   * deploy the new one without downtime. */
  previousSecretHash: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  /** The person who made it, or null for keys made by `company:create` and the local runtime. */
  createdBy: string | null;
  revokedAt: string | null;
  /** Approximate: written by the authorizer at most once per LAST_USED_GRANULARITY_MS (recordKeyUse). */
  lastUsedAt: string | null;
  /** The source address of the request that wrote `lastUsedAt`, even one the key's allowed IPs
   * refuse: a key turning up somewhere new is what its people should see. */
  lastUsedIp: string | null;
}

export const DEFAULT_KEY_NAME = 'Default key';
export const MAX_KEY_NAME_LENGTH = 100;

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

function newSecret(environment: Environment): string {
  return SECRET_PREFIX[environment] + randomBytes(32).toString('base64url');
}

export function issueCredentials(
  companyId: string,
  environment: Environment,
  now: Date,
  options: { name?: string; createdBy?: string | null; access?: ApiKeyAccess; allowedIps?: string[] | null } = {},
): IssuedCredentials {
  const apiKey = KEY_PREFIX[environment] + randomBytes(18).toString('base64url');
  const apiSecret = newSecret(environment);
  return {
    apiKey,
    apiSecret,
    record: {
      keyId: apiKey,
      companyId,
      environment,
      name: options.name ?? DEFAULT_KEY_NAME,
      status: 'active',
      access: options.access ?? 'full',
      allowedIps: options.allowedIps?.length ? options.allowedIps : null,
      secretHash: hashSecret(apiSecret),
      previousSecretHash: null,
      previousSecretExpiresAt: null,
      createdAt: now.toISOString(),
      createdBy: options.createdBy ?? null,
      revokedAt: null,
      lastUsedAt: null,
      lastUsedIp: null,
    },
  };
}

/** How long the old secret stays valid after a roll (../shared/dashboard.md: now, 1 hour, 24 hours, 7 days). */
export const ROLL_GRACE = { now: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RollGrace = keyof typeof ROLL_GRACE;

/** A new secret for the key; the old one stays valid for `grace` (none for `now`). A secret still in
 * its grace period from an earlier roll is dropped: only the newest two secrets are ever valid. */
export function rollSecret(record: ApiKeyRecord, grace: RollGrace, now: Date): { apiSecret: string; record: ApiKeyRecord } {
  const apiSecret = newSecret(record.environment);
  const keepsOld = ROLL_GRACE[grace] > 0;
  return {
    apiSecret,
    record: {
      ...record,
      secretHash: hashSecret(apiSecret),
      previousSecretHash: keepsOld ? record.secretHash : null,
      previousSecretExpiresAt: keepsOld ? new Date(now.getTime() + ROLL_GRACE[grace]).toISOString() : null,
    },
  };
}

// Compared against when the key id is unknown, so an unknown key costs the same time as a
// wrong secret and the two cannot be told apart.
const UNKNOWN_KEY_HASH = hashSecret(randomBytes(32).toString('base64url'));

/** Constant-time check of a presented secret against the stored hash and the rolled one still in
 * its grace period (or the dummy for either when absent), so every refusal takes the same time.
 * Returns the record only when the key is active and the secret is right. */
export function verifyCredentials(record: ApiKeyRecord | null, presentedSecret: string, now = new Date()): ApiKeyRecord | null {
  const presented = Buffer.from(hashSecret(presentedSecret), 'hex');
  const current = timingSafeEqual(Buffer.from(record?.secretHash ?? UNKNOWN_KEY_HASH, 'hex'), presented);
  const previousValid = !!record?.previousSecretExpiresAt && record.previousSecretExpiresAt > now.toISOString();
  const previous = timingSafeEqual(Buffer.from((previousValid && record?.previousSecretHash) || UNKNOWN_KEY_HASH, 'hex'), presented);
  return (current || (previous && previousValid)) && record?.status === 'active' ? record : null;
}

/** Cheap shape check before any read: a request with a malformed key is refused without I/O. */
export function looksLikeApiKey(value: string): boolean {
  return /^ck_(test|live)_[A-Za-z0-9_-]{24}$/.test(value);
}

/**
 * The form of every key and secret a stage issues (issueCredentials, rollSecret: 18 and 32 random
 * bytes, base64url), as regular expressions. The stage's firewall (lib/waf.ts) refuses a request
 * whose credentials are not of this form before it reaches the stage's throttle, which every
 * company shares; so these must accept every credential the stage ever issued.
 */
export function credentialForms(environment: Environment): { apiKey: string; apiSecret: string } {
  return { apiKey: `^${KEY_PREFIX[environment]}[A-Za-z0-9_-]{24}$`, apiSecret: `^${SECRET_PREFIX[environment]}[A-Za-z0-9_-]{43}$` };
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
  now = new Date(),
): Promise<ApiKeyRecord | null> {
  if (!apiKey || !apiSecret || apiSecret.length > 256) return null;
  const record = looksLikeApiKey(apiKey) ? await lookup.findApiKey(apiKey) : null;
  return verifyCredentials(record, apiSecret, now);
}

/**
 * `last used` is kept without a write on every request: only the authorizer records it, and API
 * Gateway calls the authorizer once per (key, secret) per cache period (60 s), not per request;
 * then it writes only when the stored time is older than this, with a condition that makes
 * concurrent authorizers write once. So a key costs at most one write per 5 minutes.
 */
export const LAST_USED_GRANULARITY_MS = 5 * 60_000;

export interface KeyUseRecorder {
  recordKeyUse(keyId: string, at: string, staleBefore: string, sourceIp: string | null): Promise<void>;
}

export async function recordKeyUse(recorder: KeyUseRecorder, record: ApiKeyRecord, now = new Date(), sourceIp: string | null = null): Promise<void> {
  const staleBefore = new Date(now.getTime() - LAST_USED_GRANULARITY_MS).toISOString();
  if (record.lastUsedAt && record.lastUsedAt >= staleBefore) return;
  await recorder.recordKeyUse(record.keyId, now.toISOString(), staleBefore, sourceIp);
}
