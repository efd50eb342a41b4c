import type { CompanyStore } from '../companies/company.ts';
import type { Log } from '../shared/log.ts';
import { webhookFailureMail, type Mailer } from '../mail/mail.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';

/**
 * When a webhook endpoint has failed an event for an hour (still retrying), or gives up on it (its
 * last try failed, or it answered 410 Gone and was disabled), the people who manage the company's webhooks (Owners, Admins, Developers) are
 * mailed, as Stripe mails about a failing endpoint: an integrator whose server is down learns it
 * from us, not from a customer. At most one mail an endpoint a day that it is failing, whatever
 * the number of events that fail meanwhile, and apart one that it was disabled, which an earlier
 * "failing" mail of the day must not keep back (the endpoint then gets nothing until enabled again):
 * each claim is one conditional write, so parallel senders mail once.
 */
export const WEBHOOK_ALERT_INTERVAL_MS = 24 * 60 * 60_000;

export interface WebhookAlertStore extends MemberLookup {
  /** Records an alert of this kind for the endpoint at `at` unless one was recorded after `notBefore`: false then. */
  claimAlert(companyId: string, webhookId: string, kind: 'failing' | 'disabled', at: string, notBefore: string): Promise<boolean>;
}

export interface GivenUpDelivery {
  companyId: string;
  webhookId: string;
  url: string;
  eventId: string;
  eventType: string;
  reason: string;
  /** The endpoint answered 410 Gone and is now disabled. */
  disabled: boolean;
  /** Still retrying (failing for an hour, EARLY_ALERT_AFTER_MS): when the next try is, and about
   * when the last; null once given up. */
  retrying: { nextAttemptAt: string; lastTryBy: string } | null;
}

export interface WebhookAlertDeps {
  alerts: WebhookAlertStore;
  companies: CompanyStore;
  mailer: Mailer;
}

/** Mails the endpoint's managers, unless they were mailed about it within the day. Never throws: a
 * delivery's outcome is recorded already, and an alert that fails is logged and left. */
export async function alertGivenUpDelivery(deps: WebhookAlertDeps & { log: Log }, failure: GivenUpDelivery, now = new Date()): Promise<void> {
  try {
    const notBefore = new Date(now.getTime() - WEBHOOK_ALERT_INTERVAL_MS).toISOString();
    if (!(await deps.alerts.claimAlert(failure.companyId, failure.webhookId, failure.disabled ? 'disabled' : 'failing', now.toISOString(), notBefore))) return;
    await mailMembersWho('manageWebhooks', { companies: deps.companies, members: deps.alerts, mailer: deps.mailer }, failure.companyId, (to, companyName) =>
      webhookFailureMail({ to, companyName, ...failure }),
    );
  } catch (error) {
    deps.log.error('webhook failure alert not mailed', { companyId: failure.companyId, webhookId: failure.webhookId, error: (error as Error).name ?? 'Error' });
  }
}
