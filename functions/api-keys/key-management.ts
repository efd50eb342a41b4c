import { allowedIpEntry, issueCredentials, MAX_KEY_NAME_LENGTH, rollSecret, type ApiKeyAccess, type ApiKeyLookup, type ApiKeyRecord, type RollGrace } from './api-keys.ts';
import { auditEntry, type AuditEntry } from '../companies/audit-log.ts';
import { getCompany, type CompanyStore } from '../companies/company.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { apiKeyMail, type ApiKeyNotice, type Mailer } from '../mail/mail.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';
import { confirmChange, type ChangeConfirmation } from '../people/step-up.ts';

/**
 * Integrations → API keys: a company's keys as its people see and change them (never a secret
 * after the answer that issued it, never a hash). A new key, a new secret and a change of a key's
 * allowed IPs are mailed to the company's Owners and Admins, as GitHub mails a new token: a session
 * taken over to issue a key for someone else is then seen by the people who can revoke it.
 */

/** A company's keys as its people change them, each change with its audit entry. Keys are the
 * records the authorizer reads (api-keys.ts authenticate), through ApiKeyLookup. */
export interface ApiKeyStore extends ApiKeyLookup {
  apiKeysOf(companyId: string): Promise<ApiKeyRecord[]>;
  addApiKey(record: ApiKeyRecord, audit: AuditEntry): Promise<void>;
  /** Writes what `after` changes of `before` (and `alwaysWritten`, what the change sets whatever was
   * read) only if its secret and status are still `before`'s, so two concurrent rolls cannot both
   * believe they set the secret, and a roll never writes back a list of allowed IPs it read before an
   * edit. NOT_FOUND otherwise. */
  updateApiKey(before: ApiKeyRecord, after: ApiKeyRecord, audit: AuditEntry, alwaysWritten?: readonly (keyof ApiKeyRecord)[]): Promise<void>;
}

export interface KeyDeps {
  keys: ApiKeyStore;
  companies: CompanyStore;
  /** Whom a new key, secret or list of allowed IPs is mailed to: those who manage the team. */
  members: MemberLookup;
  mailer: Mailer | null;
  log: Log;
}

/** What the dashboard shows of a key: never a hash. */
export interface ApiKeyView {
  keyId: string;
  name: string;
  status: ApiKeyRecord['status'];
  access: ApiKeyRecord['access'];
  allowedIps: ApiKeyRecord['allowedIps'];
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  previousSecretExpiresAt: string | null;
}

export function apiKeyView(record: ApiKeyRecord, now = new Date()): ApiKeyView {
  const graceLeft = record.previousSecretExpiresAt && record.previousSecretExpiresAt > now.toISOString();
  return {
    keyId: record.keyId,
    name: record.name,
    status: record.status,
    access: record.access,
    allowedIps: record.allowedIps,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    lastUsedIp: record.lastUsedIp,
    revokedAt: record.revokedAt,
    previousSecretExpiresAt: graceLeft ? record.previousSecretExpiresAt : null,
  };
}

export async function listApiKeys(store: Pick<ApiKeyStore, 'apiKeysOf'>, caller: Caller): Promise<ApiKeyView[]> {
  const records = await store.apiKeysOf(caller.membership.companyId);
  return records.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).map((record) => apiKeyView(record));
}

export async function createApiKey(
  deps: KeyDeps,
  caller: Caller,
  input: { name: string; access?: ApiKeyAccess; allowedIps?: string[] },
  confirmation: ChangeConfirmation,
  now = new Date(),
): Promise<{ key: ApiKeyView; apiKey: string; apiSecret: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_KEY_NAME_LENGTH) throw validationFailed([{ path: 'name', message: `must be 1 to ${MAX_KEY_NAME_LENGTH} characters` }]);
  const ips = allowedIpsFrom(input.allowedIps);
  const access = input.access ?? 'full';
  await confirmChange(caller, confirmation, moneyReachOf(access), now);
  const company = await getCompany(deps.companies, caller.membership.companyId);
  const credentials = issueCredentials(company.id, company.environment, now, { name, createdBy: caller.membership.personId, access, allowedIps: ips });
  await deps.keys.addApiKey(
    credentials.record,
    auditEntry(company.id, 'api_key.created', actorOf(caller.membership), caller.origin, now, credentials.apiKey, { name, access, ...(ips.length && { allowedIps: ips.join(' ') }) }),
  );
  await tellManagers(deps, caller, credentials.record, 'created', now);
  return { key: apiKeyView(credentials.record, now), apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
}

/** A full-access key's secret can pay out (POST /v1/withdrawals) to any address the company's
 * allowlist and daily limit let through, so it is issued, or given a new secret, on the person's
 * password and code (people/step-up.ts confirmChange); a read-only key moves nothing, and its issue
 * asks the recent sign-in every issued credential asks. */
const moneyReachOf = (access: ApiKeyAccess): string | null => (access === 'full' ? 'a full-access key can send withdrawals' : null);

/** The `Allowed IPs` field's entries: blank ones dropped, each an IP address or CIDR block in its
 * normal form (a wrong one is a 400 naming its line), each once. */
function allowedIpsFrom(input: string[] | undefined): string[] {
  const entries = (input ?? []).filter((entry) => entry.trim() !== '');
  const allowedIps = entries.map(allowedIpEntry);
  const wrong = allowedIps.findIndex((entry) => entry === null);
  if (wrong >= 0) throw validationFailed([{ path: `allowedIps.${wrong}`, message: `"${entries[wrong]!.trim()}" is not an IP address or CIDR block` }]);
  return [...new Set(allowedIps as string[])];
}

/** Another company's key, or one that does not exist, is "not found" alike. */
async function ownActiveKey(store: ApiKeyLookup, caller: Caller, keyId: string): Promise<ApiKeyRecord> {
  const record = await store.findApiKey(keyId);
  if (!record || record.companyId !== caller.membership.companyId) throw notFound('API key');
  if (record.status !== 'active') throw new ApiError('VALIDATION_FAILED', 'The API key is revoked', [{ path: 'keyId', message: 'is revoked' }]);
  return record;
}

export async function rollApiKey(
  deps: KeyDeps,
  caller: Caller,
  keyId: string,
  grace: RollGrace,
  confirmation: ChangeConfirmation,
  now = new Date(),
): Promise<{ key: ApiKeyView; apiKey: string; apiSecret: string }> {
  const before = await ownActiveKey(deps.keys, caller, keyId);
  await confirmChange(caller, confirmation, moneyReachOf(before.access), now);
  const { apiSecret, record } = rollSecret(before, grace, now);
  await deps.keys.updateApiKey(before, record, auditEntry(record.companyId, 'api_key.rolled', actorOf(caller.membership), caller.origin, now, keyId, { oldSecretValidFor: grace }));
  await tellManagers(deps, caller, record, 'rolled', now);
  return { key: apiKeyView(record, now), apiKey: record.keyId, apiSecret };
}

/** `Edit allowed IPs`: where an active key may be used from (empty: anywhere), without a new
 * secret. The authorizer's cached answer carries the list, so the change reaches every request
 * within its cache TTL (60 s), as a revocation does. */
export async function changeApiKeyAllowedIps(deps: KeyDeps, caller: Caller, keyId: string, input: { allowedIps: string[] }, now = new Date()): Promise<ApiKeyView> {
  const before = await ownActiveKey(deps.keys, caller, keyId);
  const ips = allowedIpsFrom(input.allowedIps);
  const after: ApiKeyRecord = { ...before, allowedIps: ips.length ? ips : null };
  // The list is written even when it equals the one read: an edit made meanwhile is replaced by this
  // one, which is what its answer, audit entry and mail say.
  await deps.keys.updateApiKey(before, after, auditEntry(after.companyId, 'api_key.allowed_ips_changed', actorOf(caller.membership), caller.origin, now, keyId, { allowedIps: ips.length ? ips.join(' ') : 'any' }), ['allowedIps']);
  await tellManagers(deps, caller, after, 'allowedIps', now);
  return apiKeyView(after, now);
}

/** The authorizer refuses a revoked key on its next call; API Gateway's cache may still admit it
 * for up to its TTL (60 s), which the contract allows. Mailed too: a session taken over to revoke a
 * live key stops the company's integration, and its managers should learn why from us. */
export async function revokeApiKey(deps: KeyDeps, caller: Caller, keyId: string, now = new Date()): Promise<ApiKeyView> {
  const before = await ownActiveKey(deps.keys, caller, keyId);
  const after: ApiKeyRecord = { ...before, status: 'revoked', revokedAt: now.toISOString(), previousSecretHash: null, previousSecretExpiresAt: null };
  await deps.keys.updateApiKey(before, after, auditEntry(after.companyId, 'api_key.revoked', actorOf(caller.membership), caller.origin, now, keyId));
  await tellManagers(deps, caller, after, 'revoked', now);
  return apiKeyView(after, now);
}


/** A failed mail is logged; the key, secret or list stands (the audit log has it too). */
async function tellManagers(deps: KeyDeps, caller: Caller, key: ApiKeyRecord, change: ApiKeyNotice['change'], now: Date): Promise<void> {
  if (!deps.mailer) return;
  try {
    await mailMembersWho('manageTeam', { companies: deps.companies, members: deps.members, mailer: deps.mailer }, key.companyId, (to, companyName) =>
      apiKeyMail({
        to,
        companyName,
        change,
        by: caller.membership.email,
        from: caller.origin.sourceIp,
        at: now.toISOString(),
        key: { keyId: key.keyId, name: key.name, access: key.access, allowedIps: key.allowedIps },
      }),
    );
  } catch (error) {
    deps.log.warn('API key change not mailed', { companyId: key.companyId, keyId: key.keyId, error: (error as Error).name ?? 'Error' });
  }
}
