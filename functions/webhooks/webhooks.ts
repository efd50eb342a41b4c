import { pageRequest, type Page, type PageRequest } from '../shared/pagination.ts';
import type { AuditEntry } from '../companies/audit-log.ts';
import type { Alongside } from '../shared/alongside.ts';
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, notFound } from '../shared/errors.ts';
import { TEST_EVENT_TYPE, type EventType } from '../shared/events.ts';
import { foundById, isId, newId } from '../shared/ids.ts';
import { signingContext, type WebhookSecretSealer } from './webhook-secrets.ts';
import { requireWebhookUrl, type Resolver, type UrlPolicy } from './webhook-url.ts';

/**
 * Webhook registrations (../shared/api-contract.md, Webhooks). The signing secret is a shared HMAC
 * key (Standard Webhooks): it is shown once, in the POST response, and stored only sealed
 * (./webhook-secrets.ts; docs/api-notes.md, Webhooks).
 */
export type WebhookEvents = EventType[] | ['*'];

export interface Webhook {
  id: string;
  companyId: string;
  url: string;
  events: WebhookEvents;
  description: string | null;
  enabled: boolean;
  /** The signing secret (`whsec_` + base64 of 24 random bytes) sealed for `webhook-signing`; on
   * an item not yet sealed, the plain secret itself (./webhook-secrets.ts `openSigningSecret`). */
  sealedSecret: string;
  createdAt: string;
  updatedAt: string;
  /** Why Cambio turned it off (a 410 Gone), if it did; cleared by a PUT. */
  disabledReason: string | null;
  /** After `Roll secret`: the secret it replaced, sealed as `sealedSecret` is, which keeps signing
   * beside the new one until `previousSecretExpiresAt` (two `v1,` signatures, as Standard Webhooks
   * allows), so receivers can switch without losing a delivery. */
  previousSealedSecret: string | null;
  previousSecretExpiresAt: string | null;
}

export const MAX_WEBHOOKS_PER_COMPANY = 10;


export interface WebhookStore {
  /** Writes the webhook and takes one of the company's `limit` slots in one transaction; throws
   * LIMIT_REACHED when none is left. */
  createWebhook(webhook: Webhook, limit: number, audit?: AuditEntry, alongside?: Alongside): Promise<void>;
  getWebhook(companyId: string, webhookId: string): Promise<Webhook | null>;
  /** Newest first. An unreadable cursor is VALIDATION_FAILED on `cursor`. */
  listWebhooks(companyId: string, page: PageRequest): Promise<Page<Webhook>>;
  /** Replaces an existing webhook (sealed secret and createdAt kept by the caller); false if it is
   * gone, or its secret (or, with `keptSwitch`, its being on or off) changed since it was read. */
  /** Writes `webhook` while its stored secret is the one written back and, with `asRead` (the
   * record's `updatedAt` when the change was built on it), while nothing else changed it since;
   * false, writing nothing, otherwise. */
  replaceWebhook(webhook: Webhook, audit?: AuditEntry, asRead?: string): Promise<boolean>;
  /** Deletes it and frees its slot; false if it did not exist. */
  deleteWebhook(companyId: string, webhookId: string, audit?: AuditEntry): Promise<boolean>;
}

export interface WebhookInput {
  url: string;
  events: WebhookEvents;
  description?: string | null;
  enabled?: boolean;
}

export interface UrlRules {
  policy: UrlPolicy;
  resolve: Resolver;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** A webhook just registered, with its secret in the clear: the one time it exists outside the sealer. */
export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

export async function createWebhook(
  store: WebhookStore,
  rules: UrlRules,
  sealer: WebhookSecretSealer,
  companyId: string,
  input: WebhookInput,
  now = new Date(),
  /** Written beside the webhook, in its transaction: the dashboard's audit entry, the API's
   * Idempotency-Key answer (built from the secret too, which it seals for replay). */
  { audit, answer }: { audit?: (webhook: Webhook) => AuditEntry; answer?: (created: CreatedWebhook) => Promise<Alongside> } = {},
): Promise<CreatedWebhook> {
  await requireWebhookUrl(input.url, rules.policy, rules.resolve);
  const at = now.toISOString();
  const id = newId('webhook', now.getTime());
  const secret = newWebhookSecret();
  const webhook: Webhook = {
    id,
    companyId,
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    sealedSecret: await sealer.seal(secret, signingContext({ companyId, id })),
    createdAt: at,
    updatedAt: at,
    disabledReason: null,
    previousSealedSecret: null,
    previousSecretExpiresAt: null,
  };
  const created = { webhook, secret };
  await store.createWebhook(webhook, MAX_WEBHOOKS_PER_COMPANY, audit?.(webhook), await answer?.(created));
  return created;
}

export async function getWebhook(store: WebhookStore, companyId: string, webhookId: string): Promise<Webhook> {
  return foundById('webhook', webhookId, (id) => store.getWebhook(companyId, id), 'Webhook');
}

export async function listWebhooks(store: WebhookStore, companyId: string, query: { limit?: number; cursor?: string }): Promise<Page<Webhook>> {
  return store.listWebhooks(companyId, pageRequest(query));
}

/** /v1's PUT: the same body as POST, replacing every field (omitted optional ones take their defaults). */
export const replaceWebhook = (store: WebhookStore, rules: UrlRules, companyId: string, webhookId: string, input: WebhookInput, now = new Date()): Promise<Webhook> =>
  changeWebhook(store, rules, companyId, webhookId, { url: input.url, events: input.events, description: input.description ?? null, enabled: input.enabled ?? true }, now);

/** The dashboard's change of an endpoint: the fields it names; an omitted one stays as it stands. */
export type WebhookChange = Partial<WebhookInput>;

/**
 * The dashboard's Edit, `Disable` and `Enable` (docs/dashboard-api.md, Webhooks): what `change`
 * names, everything else as it stands when written. A page loaded earlier sends only what its person
 * changed, so `Disable` does not put back the URL a colleague has set since, nor an edit turn back on
 * an endpoint a 410 disabled (an omitted `enabled` keeps why Cambio turned it off, too). Only a new
 * URL is checked: the one kept was checked when it was set, and the sender checks it again before
 * each delivery (webhook-delivery.ts), so a switch is never refused by a host's DNS.
 */
export async function changeWebhook(
  store: WebhookStore,
  rules: UrlRules,
  companyId: string,
  webhookId: string,
  change: WebhookChange,
  now = new Date(),
  audit?: (before: Webhook, after: Webhook) => AuditEntry,
): Promise<Webhook> {
  let current = await getWebhook(store, companyId, webhookId);
  if (change.url !== undefined) await requireWebhookUrl(change.url, rules.policy, rules.resolve);
  // The store writes only while the record is as read: a roll in between would be undone, a 410's
  // disable turned back on, a colleague's URL or events put back as this page last saw them. Read
  // again and apply the same change to what stands now. Each miss needs another change within the
  // same milliseconds; past a few, the cause is logged (a 500).
  for (let attempt = 1; ; attempt += 1) {
    const replaced: Webhook = {
      ...current,
      url: change.url ?? current.url,
      events: change.events ?? current.events,
      description: change.description === undefined ? current.description : change.description,
      updatedAt: now.toISOString(),
      ...(change.enabled === undefined ? {} : { enabled: change.enabled, disabledReason: null }),
    };
    if (await store.replaceWebhook(replaced, audit?.(current, replaced), current.updatedAt)) return replaced;
    if (attempt === REPLACE_ATTEMPTS) throw new Error(`Webhook ${webhookId}: changed under each of ${REPLACE_ATTEMPTS} replacements`);
    current = await getWebhook(store, companyId, webhookId);
  }
}

const REPLACE_ATTEMPTS = 3;

export async function deleteWebhook(store: WebhookStore, companyId: string, webhookId: string, audit?: AuditEntry): Promise<{ id: string; deleted: true }> {
  if (!isId('webhook', webhookId) || !(await store.deleteWebhook(companyId, webhookId, audit))) throw notFound('Webhook');
  return { id: webhookId, deleted: true };
}

export const limitReached = (): ApiError =>
  new ApiError('LIMIT_REACHED', `A company can register at most ${MAX_WEBHOOKS_PER_COMPANY} webhooks`, {
    limit: MAX_WEBHOOKS_PER_COMPANY,
  });

export function subscribesTo(webhook: Pick<Webhook, 'events' | 'enabled'>, type: string): boolean {
  // A test event goes only to the endpoint it was sent to (webhook-endpoints.ts), never by subscription.
  if (type === TEST_EVENT_TYPE) return false;
  return webhook.enabled && (webhook.events[0] === '*' || (webhook.events as string[]).includes(type));
}

/** The contract's record: never the secret. */
export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

/** POST's answer: the record plus the secret, the one time it is shown. */
export function createdWebhookView({ webhook, secret }: CreatedWebhook) {
  return { ...webhookView(webhook), secret };
}

/**
 * Standard Webhooks signature: `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), the
 * key being the base64-decoded part of the secret after `whsec_` (contract, Events and their delivery).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
