import type { CompanyStore } from '../companies/company.ts';
import { ApiError } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { webhookFailureMail, type Mailer } from '../mail/mail.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';

/**
 * When a webhook endpoint has failed an event for an hour (still retrying), or gives up on it (its
 * last try failed, or it answered 410 Gone and was disabled), the people who manage the company's webhooks (Owners, Admins, Developers) are
 * mailed, as Stripe mails about a failing endpoint: an integrator whose server is down learns it
 * from us, not from a customer. At most one mail an endpoint a day that it is failing, whatever
 * the number of events that fail meanwhile, and apart one that it was disabled, which an earlier
 * "failing" mail of the day must not keep back (the endpoint then gets nothing until enabled again).
 * Each mail is claimed by one conditional write, so parallel senders mail once, and the claim is
 * only pending until the mail has gone out: a sender that dies or whose mail fails in between would
 * otherwise hold the day's claim for a mail nobody sent, and the managers of a disabled endpoint,
 * which fails no event again, would never hear of it. The try that owes the mail takes its pending
 * claim back when its message comes again; any other sender takes it once it lapses.
 */
export const WEBHOOK_ALERT_INTERVAL_MS = 24 * 60 * 60_000;

/** Longer than a sender's run can last (its mail sent or not by then), so a live sender's claim is
 * never taken from it. */
export const ALERT_CLAIM_PENDING_MS = 5 * 60_000;

/** One endpoint's alert of one kind, as claimed by one try (`claimant`). */
export interface AlertClaim {
  companyId: string;
  webhookId: string;
  kind: 'failing' | 'disabled';
  claimant: string;
}

export interface WebhookAlertStore extends MemberLookup {
  /** Claims the alert at `at`, pending until `pendingUntil`; false, writing nothing, when one was
   * mailed after `notBefore`, or another claimant's is still pending (its sender is mailing it, or
   * its message will come back to). The claimant's own pending claim is taken again. */
  claimAlert(claim: AlertClaim, at: string, notBefore: string, pendingUntil: string): Promise<boolean>;
  /** The claim's mail went out: it holds for the day. */
  alertMailed(claim: AlertClaim): Promise<void>;
  /** The claim's mail did not go out: anyone may claim it from `at` on. */
  releaseAlert(claim: AlertClaim, at: string): Promise<void>;
}

export interface GivenUpDelivery {
  companyId: string;
  webhookId: string;
  url: string;
  eventId: string;
  eventType: string;
  /** The try that owes the alert: its message, come back after its sender died, claims it again. */
  round: number;
  attempt: number;
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

/** Mails the endpoint's managers, unless they were mailed about it within the day or another sender
 * is mailing them. A manager SES refuses for good (an address refused, the account's sending paused)
 * is passed over: retried, the mail would fail the same way, mailing the others again each time, up
 * to the queue's ten receives. Throws when nobody was mailed and trying again may pass (the store,
 * or SES throttled or failing on its side), its claim released, so the message that owes it comes
 * back and mails it; once one manager is mailed, a later failure is only logged, for the same
 * reason; so is a company without a profile, which nobody could be mailed about. */
export async function alertGivenUpDelivery(deps: WebhookAlertDeps & { log: Log }, failure: GivenUpDelivery, now = new Date()): Promise<void> {
  const claim: AlertClaim = {
    companyId: failure.companyId,
    webhookId: failure.webhookId,
    kind: failure.disabled ? 'disabled' : 'failing',
    claimant: `${failure.eventId}#${failure.round}#${failure.attempt}`,
  };
  const notBefore = new Date(now.getTime() - WEBHOOK_ALERT_INTERVAL_MS).toISOString();
  const pendingUntil = new Date(now.getTime() + ALERT_CLAIM_PENDING_MS).toISOString();
  let claimed = false;
  let mailed = 0;
  // A manager SES refuses for good is logged and passed over: the others are mailed all the same.
  const counted: Mailer = {
    send: async (mail) => {
      try {
        await deps.mailer.send(mail);
        mailed++;
      } catch (error) {
        if (mayPassAgain(error)) throw error;
        deps.log.warn('webhook failure alert refused by the mailer for this manager', { companyId: failure.companyId, webhookId: failure.webhookId, error: (error as Error).name });
      }
    },
  };
  try {
    claimed = await deps.alerts.claimAlert(claim, now.toISOString(), notBefore, pendingUntil);
    if (!claimed) return;
    await mailMembersWho('manageWebhooks', { companies: deps.companies, members: deps.alerts, mailer: counted }, failure.companyId, (to, companyName) =>
      webhookFailureMail({ to, companyName, ...failure }),
    );
  } catch (error) {
    deps.log.error('webhook failure alert not mailed', { companyId: failure.companyId, webhookId: failure.webhookId, mailed, error: (error as Error).name ?? 'Error' });
    const noProfile = error instanceof ApiError && error.code === 'NOT_FOUND';
    if (!noProfile && mailed === 0 && mayPassAgain(error)) {
      // Released rather than left to lapse, so the next failure of the endpoint need not wait for it.
      if (claimed) await deps.alerts.releaseAlert(claim, now.toISOString()).catch(() => undefined);
      throw error;
    }
    // Settled as it stands: the day's claim holds where anyone was mailed or nobody can be.
    if (claimed && !noProfile) await markMailed(deps, claim);
    else if (claimed) await deps.alerts.releaseAlert(claim, now.toISOString()).catch(() => undefined);
    return;
  }
  await markMailed(deps, claim);
}

/** The mail went out: a claim left pending lapses, and at worst a later failure of the day mails again. */
const markMailed = (deps: WebhookAlertDeps & { log: Log }, claim: AlertClaim) =>
  deps.alerts.alertMailed(claim).catch((error: Error) => deps.log.warn('webhook failure alert not marked mailed', { companyId: claim.companyId, webhookId: claim.webhookId, error: error.name ?? 'Error' }));

/** SES's refusals that no retry changes (the address or the message refused, sending paused for the
 * account or the configuration set: those wait for a person, whom the bounce alarms tell). */
const REFUSED_FOR_GOOD = new Set(['MessageRejected', 'BadRequestException', 'AccountSuspendedException', 'SendingPausedException', 'MailFromDomainNotVerifiedException', 'NotFoundException']);

/** Whether the same call may pass later: anything but SES refusing the mail for good. */
const mayPassAgain = (error: unknown): boolean => !REFUSED_FOR_GOOD.has((error as Error).name);
