import type { Page, PageRequest } from '../shared/pagination.ts';
import { auditEntry, type AuditAction, type AuditEntry } from '../companies/audit-log.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { ApiError, notFound } from '../shared/errors.ts';
import { domainEvent, TEST_EVENT_TYPE, type DomainEvent } from '../shared/events.ts';
import { isId } from '../shared/ids.ts';
import type { WebhookAttempt } from './webhook-attempt.ts';
import type { DeliveryQueue } from './webhook-delivery.ts';
import { isPlainSecret, signingContext, type WebhookSecretSealer } from './webhook-secrets.ts';
import {
  changeWebhook,
  createWebhook,
  deleteWebhook,
  getWebhook,
  newWebhookSecret,
  webhookView,
  type UrlRules,
  type Webhook,
  type WebhookChange,
  type WebhookInput,
  type WebhookStore,
} from './webhooks.ts';

/**
 * The dashboard's Webhooks pages (../shared/dashboard.md, Webhooks): the same webhooks as /v1's,
 * through the same use cases (URL rules, the limit of 10, the sealed secret), each change written
 * with its audit entry in one transaction; and what only the page offers: an endpoint's delivery
 * attempts, `Resend`, `Send test event` and `Roll secret`.
 */

/** How long the replaced secret keeps signing after `Roll secret`. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export type { WebhookAttempt };

export interface WebhookEndpointStore {
  /** Newest first; an unreadable cursor is VALIDATION_FAILED on `cursor`. */
  attemptsOf(companyId: string, webhookId: string, page: PageRequest): Promise<Page<WebhookAttempt>>;
  /** A new round of the event's delivery to the endpoint, or null if it was never sent there. Taken
   * from the event's own count, as `events:redeliver` takes its rounds (above every round either
   * made before): a resend and a redelivery never share a round, which would make the sender take
   * the later one for a copy of the earlier. */
  nextDeliveryRound(companyId: string, eventId: string, webhookId: string): Promise<number | null>;
  /** The event and the audit entry, in one transaction. */
  addEvent(event: DomainEvent, audit: AuditEntry): Promise<void>;
  appendAudit(entry: AuditEntry): Promise<void>;
  /** Swaps the secrets only if the webhook still holds `expected` (a concurrent roll loses); false if not. */
  rollSecret(webhook: Webhook, expectedSealedSecret: string, audit: AuditEntry): Promise<boolean>;
}

const audit = (caller: Caller, action: AuditAction, webhookId: string, now: Date, details: Record<string, string> | null = null) =>
  auditEntry(caller.membership.companyId, action, actorOf(caller.membership), caller.origin, now, webhookId, details);

/** The /v1 record, plus why Cambio turned it off and until when a rolled secret still signs. */
export const dashboardWebhookView = (webhook: Webhook) => ({
  ...webhookView(webhook),
  disabledReason: webhook.disabledReason,
  previousSecretExpiresAt: webhook.previousSecretExpiresAt,
});

/** Every webhook of the company: at most 10, so one page. */
export async function dashboardWebhooks(store: WebhookStore, caller: Caller) {
  const { records } = await store.listWebhooks(caller.membership.companyId, { limit: 100 });
  return records.map(dashboardWebhookView);
}

export async function dashboardWebhook(store: WebhookStore, caller: Caller, webhookId: string) {
  return dashboardWebhookView(await getWebhook(store, caller.membership.companyId, webhookId));
}

/** `Add endpoint`: the answer holds the signing secret, the one time it is shown. */
export async function addEndpoint(store: WebhookStore, rules: UrlRules, sealer: WebhookSecretSealer, caller: Caller, input: WebhookInput, now = new Date()) {
  const { webhook, secret } = await createWebhook(store, rules, sealer, caller.membership.companyId, input, now, { audit: (made) => audit(caller, 'webhook.created', made.id, now, { url: made.url }) });
  return { ...dashboardWebhookView(webhook), secret };
}

/**
 * Edit, `Disable` and `Enable` are one change of what the body names, the rest kept as it stands
 * (webhooks.ts changeWebhook); the audit says which it was. A new URL is where the company's events
 * will go from now on, so it needs a recent sign-in (`requireRecentSignIn`, from the route), as
 * adding an endpoint does; switching it off or on, its events and its description do not. Checked
 * on the endpoint as the change read it, before anything is written.
 */
export async function changeEndpoint(store: WebhookStore, rules: UrlRules, caller: Caller, webhookId: string, change: WebhookChange, requireRecentSignIn: () => void, now = new Date()) {
  const changed = await changeWebhook(store, rules, caller.membership.companyId, webhookId, change, now, (before, after) => {
    if (before.url !== after.url) requireRecentSignIn();
    const onlySwitched = before.url === after.url && JSON.stringify(before.events) === JSON.stringify(after.events) && before.description === after.description && before.enabled !== after.enabled;
    if (onlySwitched) return audit(caller, after.enabled ? 'webhook.enabled' : 'webhook.disabled', webhookId, now);
    return audit(caller, 'webhook.updated', webhookId, now, { url: after.url, enabled: String(after.enabled) });
  });
  return dashboardWebhookView(changed);
}

export function removeEndpoint(store: WebhookStore, caller: Caller, webhookId: string, now = new Date()) {
  return deleteWebhook(store, caller.membership.companyId, webhookId, audit(caller, 'webhook.deleted', webhookId, now));
}

/** The endpoint's delivery attempts, newest first (another company's endpoint is a 404). */
export async function endpointAttempts(webhooks: WebhookStore, store: WebhookEndpointStore, caller: Caller, webhookId: string, page: PageRequest) {
  await getWebhook(webhooks, caller.membership.companyId, webhookId);
  return store.attemptsOf(caller.membership.companyId, webhookId, page);
}

/**
 * `Resend` and `Send test event` on a disabled endpoint: the sender cancels every message to it
 * untried, so a 202 would promise a delivery that never comes nor shows among its attempts (a person
 * who fixed their receiver after a 410 and clicked Send test event before Enable saw just that).
 * Refused before anything is written, as the dashboard refuses other actions a record's state rules
 * out (a revoked key, the last Owner): VALIDATION_FAILED, naming what stands in the way. (A disable
 * landing between this check and the queue still cancels the message: the check is the page's
 * answer, not a lock.)
 */
const endpointDisabled = (): ApiError =>
  new ApiError('VALIDATION_FAILED', 'This endpoint is disabled: enable it first. Cambio sends nothing to a disabled endpoint', [
    { path: 'webhookId', message: 'is disabled: enable the endpoint first' },
  ]);

/**
 * `Resend`: the event again, to this endpoint only, as a new round of its delivery: the sender
 * skips a message whose round a success already covers, so the resend must carry a newer one.
 * An event never sent to this endpoint (or another company's) is a 404.
 */
export async function resendEvent(webhooks: WebhookStore, store: WebhookEndpointStore, queue: DeliveryQueue, caller: Caller, webhookId: string, eventId: string, now = new Date()) {
  const companyId = caller.membership.companyId;
  const webhook = await getWebhook(webhooks, companyId, webhookId);
  // Before the round is taken: taking it writes the event.
  if (!webhook.enabled) throw endpointDisabled();
  const round = isId('event', eventId) ? await store.nextDeliveryRound(companyId, eventId, webhookId) : null;
  if (round === null) throw notFound('Delivery');
  // Audited first: a resend that reached the endpoint is never missing from the log.
  await store.appendAudit(audit(caller, 'webhook.resent', webhookId, now, { eventId }));
  await queue.send([{ message: { companyId, eventId, webhookId, round, attempt: 1 }, delayMs: 0 }]);
  return { eventId, webhookId, queued: true as const };
}

/**
 * `Send test event`: a `webhook.test` event, stored as every event is (so it is signed and retried
 * like one, and shows in Activity), queued for this endpoint alone. Its payload says it is a test.
 */
export async function sendTestEvent(webhooks: WebhookStore, store: WebhookEndpointStore, queue: DeliveryQueue, caller: Caller, webhookId: string, now = new Date()) {
  const companyId = caller.membership.companyId;
  const webhook = await getWebhook(webhooks, companyId, webhookId);
  if (!webhook.enabled) throw endpointDisabled();
  const event = domainEvent(companyId, TEST_EVENT_TYPE, { webhookId: webhook.id, url: webhook.url, message: 'A test event sent from the Cambio dashboard' }, now);
  await store.addEvent(event, audit(caller, 'webhook.test_sent', webhookId, now, { eventId: event.id }));
  await queue.send([{ message: { companyId, eventId: event.id, webhookId, round: 0, attempt: 1 }, delayMs: 0 }]);
  return { eventId: event.id, type: TEST_EVENT_TYPE };
}

/**
 * `Roll secret`: a new secret, shown once; the one it replaces keeps signing beside it for 24 hours
 * (the sender adds its signature), so receivers switch without a failed delivery. Rolling again
 * within those hours drops the oldest: only the two newest ever sign.
 */
export async function rollSecret(webhooks: WebhookStore, store: WebhookEndpointStore, sealer: WebhookSecretSealer, caller: Caller, webhookId: string, now = new Date()) {
  const current = await getWebhook(webhooks, caller.membership.companyId, webhookId);
  const secret = newWebhookSecret();
  const rolled: Webhook = {
    ...current,
    sealedSecret: await sealer.seal(secret, signingContext(current)),
    // An item written before sealing holds its secret plain: sealed as it becomes the previous one,
    // which webhooks:seal-secrets (reading `secret` alone) would never reach.
    previousSealedSecret: isPlainSecret(current.sealedSecret) ? await sealer.seal(current.sealedSecret, signingContext(current)) : current.sealedSecret,
    previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS).toISOString(),
    updatedAt: now.toISOString(),
  };
  if (!(await store.rollSecret(rolled, current.sealedSecret, audit(caller, 'webhook.secret_rolled', webhookId, now)))) throw notFound('Webhook');
  return { ...dashboardWebhookView(rolled), secret };
}
