import { isPlainSecret } from '#functions/webhooks/webhook-secrets';
import type { Webhook } from '#functions/webhooks/webhooks';
import { companyRecord, companySetting, type Item } from './item.ts';

/**
 * The one owner of a stored `Webhook` (docs/data-model.md) and of its company's `WebhookCount`.
 *
 * The secret is stored sealed, as `sealedSecret` (functions/webhooks/webhook-secrets.ts). An item
 * not yet sealed holds the plain secret as `secret`: it is read into `sealedSecret` (which the
 * sender opens as the plain value it is) and written back as `secret` by a PUT, never renamed, so
 * an item's attribute always says which of the two it holds.
 */
export const webhookItem = {
  ...companyRecord('Webhook', 'WEBHOOK#'),

  toItem: ({ sealedSecret, ...webhook }: Webhook): Item => ({
    ...webhookItem.head(webhook.companyId, webhook.id),
    ...webhook,
    [isPlainSecret(sealedSecret) ? 'secret' : 'sealedSecret']: sealedSecret,
  }),
  fromItem: (item: Item): Webhook => ({
    id: item.id as string,
    companyId: item.companyId as string,
    url: item.url as string,
    events: item.events as Webhook['events'],
    description: (item.description as string | null | undefined) ?? null,
    enabled: item.enabled as boolean,
    sealedSecret: (item.sealedSecret ?? item.secret) as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    disabledReason: (item.disabledReason as string | null | undefined) ?? null,
    previousSealedSecret: (item.previousSealedSecret as string | null | undefined) ?? null,
    previousSecretExpiresAt: (item.previousSecretExpiresAt as string | null | undefined) ?? null,
  }),
};

const webhookAlertRecord = companyRecord('WebhookAlert', 'WEBHOOK_ALERT#');
/** An endpoint's alert of one kind: the failing one under the webhook's id, the disabled one beside it. */
const webhookAlertId = (webhookId: string, kind: 'failing' | 'disabled') => (kind === 'failing' ? webhookId : `${webhookId}#DISABLED`);

/** The one owner of a stored `WebhookAlert`: when an endpoint's managers were last mailed that it
 * is failing, or apart that it was disabled (functions/webhooks/webhook-alerts.ts), so they are
 * mailed at most once a day of each. The failing one keeps the key it always had. */
export const webhookAlertItem = {
  ...webhookAlertRecord,
  alertKey: (companyId: string, webhookId: string, kind: 'failing' | 'disabled') => webhookAlertRecord.key(companyId, webhookAlertId(webhookId, kind)),
  toItem: (companyId: string, webhookId: string, kind: 'failing' | 'disabled', alertedAt: string): Item => ({
    ...webhookAlertRecord.head(companyId, webhookAlertId(webhookId, kind)),
    webhookId,
    kind,
    alertedAt,
  }),
};

/** How many webhooks a company has: its conditional ADD, in the webhook's own transaction, is what
 * holds the limit of 10 (a count-then-write could overshoot it under concurrent POSTs). */
export const webhookCountItem = {
  ...companySetting('WebhookCount', 'WEBHOOK_COUNT'),
};
