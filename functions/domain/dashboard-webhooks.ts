import { auditEntry, type AuditAction } from './audit-log.ts';
import { actorOf, type Caller } from './dashboard.ts';
import type { WebhookSecretSealer } from './webhook-secrets.ts';
import { createdWebhookView, createWebhook, deleteWebhook, getWebhook, replaceWebhook, webhookView, type UrlRules, type Webhook, type WebhookInput, type WebhookStore } from './webhooks.ts';

/**
 * The dashboard's Webhooks page (../shared/dashboard.md, Webhooks): the same webhooks as /v1's,
 * through the same use cases (URL rules, the limit of 10, the sealed secret), each change written
 * with its audit entry in one transaction.
 */
const audit = (caller: Caller, action: AuditAction, webhookId: string, now: Date, details: Record<string, string> | null = null) =>
  auditEntry(caller.membership.companyId, action, actorOf(caller.membership), caller.origin, now, webhookId, details);

/** Every webhook of the company: at most 10, so one page. */
export async function dashboardWebhooks(store: WebhookStore, caller: Caller) {
  const { webhooks } = await store.listWebhooks(caller.membership.companyId, { limit: 100 });
  return webhooks.map(dashboardWebhookView);
}

/** The /v1 record, plus why Cambio turned it off, if it did. */
export const dashboardWebhookView = (webhook: Webhook) => ({ ...webhookView(webhook), disabledReason: webhook.disabledReason });

export async function dashboardWebhook(store: WebhookStore, caller: Caller, webhookId: string) {
  return dashboardWebhookView(await getWebhook(store, caller.membership.companyId, webhookId));
}

/** `Add endpoint`: the answer holds the signing secret, the one time it is shown. */
export async function addEndpoint(store: WebhookStore, rules: UrlRules, sealer: WebhookSecretSealer, caller: Caller, input: WebhookInput, now = new Date()) {
  const created = await createWebhook(store, rules, sealer, caller.membership.companyId, input, now, (webhook) => audit(caller, 'webhook.created', webhook.id, now, { url: webhook.url }));
  return createdWebhookView(created);
}

/** Edit, `Disable` and `Enable` are one replacement; the audit says which it was. */
export async function changeEndpoint(store: WebhookStore, rules: UrlRules, caller: Caller, webhookId: string, input: WebhookInput, now = new Date()) {
  const changed = await replaceWebhook(store, rules, caller.membership.companyId, webhookId, input, now, (before, after) => {
    const onlySwitched = before.url === after.url && JSON.stringify(before.events) === JSON.stringify(after.events) && before.description === after.description && before.enabled !== after.enabled;
    if (onlySwitched) return audit(caller, after.enabled ? 'webhook.enabled' : 'webhook.disabled', webhookId, now);
    return audit(caller, 'webhook.updated', webhookId, now, { url: after.url, enabled: String(after.enabled) });
  });
  return dashboardWebhookView(changed);
}

export function removeEndpoint(store: WebhookStore, caller: Caller, webhookId: string, now = new Date()) {
  return deleteWebhook(store, caller.membership.companyId, webhookId, audit(caller, 'webhook.deleted', webhookId, now));
}
