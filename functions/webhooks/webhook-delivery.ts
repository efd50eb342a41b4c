import { checkWebhookUrl, UrlRefusedError, type CheckedTarget, type Resolver, type UrlPolicy } from './webhook-url.ts';
import { openSigningSecret, type WebhookSecretSealer } from './webhook-secrets.ts';
import { signWebhook, subscribesTo, type Webhook } from './webhooks.ts';
import { parseRetryAfter } from '../shared/retry.ts';
import { stderrLog, type Log } from '../shared/log.ts';
import type { GivenUpDelivery } from './webhook-alerts.ts';

/**
 * Webhook delivery (../shared/api-contract.md, Events and their delivery), in two steps joined by
 * a queue:
 * - the dispatcher turns each event (written in the same transaction as its state change) into
 *   one message per matching enabled webhook, sends them, and only then marks the event
 *   dispatched: dying in between sends them again, a duplicate at most, never a loss;
 * - the sender makes one attempt per message and either finishes it (2xx, 410, or the last try,
 *   which goes to the dead-letter queue) or queues the next try on the retry schedule.
 * Both take their ports as arguments: DynamoDB and SQS in AWS, DynamoDB Local and an in-process
 * queue with SQS's semantics in the local runtime.
 */

/** What the dispatcher reads of an event. `round` counts redeliveries (events:redeliver). */
export interface DispatchableEvent {
  id: string;
  companyId: string;
  type: string;
  round: number;
}

/** One delivery try of one event to one webhook. Its identity for receivers is the event id. */
export interface DeliveryMessage {
  companyId: string;
  eventId: string;
  webhookId: string;
  round: number;
  /** 1 for the first try. */
  attempt: number;
  /** Not to be tried before (ISO): a wait longer than the queue's own delay limit. */
  notBefore?: string;
}

export interface QueuedMessage {
  message: DeliveryMessage;
  delayMs: number;
}

export interface DeliveryQueue {
  send(messages: QueuedMessage[]): Promise<void>;
  /** After the last try: kept for devops (contract: "kept in a dead-letter queue"). */
  sendToDeadLetter(message: DeliveryMessage, reason: string): Promise<void>;
}

export interface DispatchStore {
  /** Consistent read of a company's webhooks (at most 10). */
  webhooksOf(companyId: string): Promise<Pick<Webhook, 'id' | 'events' | 'enabled'>[]>;
  /** Clears the event's undispatched mark and records where it went; a no-op if the event was
   * marked for redelivery (a newer round) meanwhile. */
  markDispatched(event: DispatchableEvent, webhookIds: string[], at: Date): Promise<void>;
  /** Events still marked undispatched and created before `before`, oldest first, a page of `limit`
   * from `after` (the `next` of the page before); `next` is null after the last page. */
  undispatchedEvents(before: Date, limit: number, after?: string): Promise<{ events: DispatchableEvent[]; next: string | null }>;
}

export interface DispatchOutcome {
  events: number;
  messages: number;
}

/** Sends first, marks after (see the module comment). */
export async function dispatchEvents(
  deps: { store: DispatchStore; queue: DeliveryQueue },
  events: DispatchableEvent[],
  now = new Date(),
): Promise<DispatchOutcome> {
  const webhooksByCompany = new Map<string, Pick<Webhook, 'id' | 'events' | 'enabled'>[]>();
  const plan: { event: DispatchableEvent; webhookIds: string[] }[] = [];
  for (const event of events) {
    let webhooks = webhooksByCompany.get(event.companyId);
    if (!webhooks) webhooksByCompany.set(event.companyId, (webhooks = await deps.store.webhooksOf(event.companyId)));
    plan.push({ event, webhookIds: webhooks.filter((webhook) => subscribesTo(webhook, event.type)).map((webhook) => webhook.id) });
  }
  const messages = plan.flatMap(({ event, webhookIds }) =>
    webhookIds.map((webhookId) => ({
      message: { companyId: event.companyId, eventId: event.id, webhookId, round: event.round, attempt: 1 },
      delayMs: 0,
    })),
  );
  if (messages.length) await deps.queue.send(messages);
  for (const { event, webhookIds } of plan) await deps.store.markDispatched(event, webhookIds, now);
  return { events: events.length, messages: messages.length };
}

/**
 * The timer's pass (local runtime; the safety net behind the stream in AWS): page after page of the
 * undispatched events, oldest first, until none is left or `budgetMs` has passed. One page a pass
 * (100 events a minute, for every company together) let one company's redelivery of 50,000 events
 * hold every other company's undelivered events behind it for eight hours.
 */
export async function dispatchUndispatched(
  deps: { store: DispatchStore; queue: DeliveryQueue },
  options: { minAgeMs: number; batchSize?: number; budgetMs?: number },
  now = new Date(),
): Promise<DispatchOutcome> {
  const started = Date.now();
  const before = new Date(now.getTime() - options.minAgeMs);
  const outcome: DispatchOutcome = { events: 0, messages: 0 };
  let after: string | undefined;
  do {
    const page = await deps.store.undispatchedEvents(before, options.batchSize ?? 100, after);
    const dispatched = await dispatchEvents(deps, page.events, now);
    outcome.events += dispatched.events;
    outcome.messages += dispatched.messages;
    if (page.next === null) break;
    after = page.next;
  } while (Date.now() - started < (options.budgetMs ?? CATCH_UP_BUDGET_MS));
  return outcome;
}

/** Most of the dispatcher's minute (its function times out at 60 s, and runs once a minute). */
export const CATCH_UP_BUDGET_MS = 40_000;

export type DeliveryStatus = 'retrying' | 'succeeded' | 'failed' | 'cancelled';

/** One try, as devops sees it on the delivery item. */
export interface AttemptRecord {
  round: number;
  attempt: number;
  at: string;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface LoadedDelivery {
  /** The stored webhook body (`payload`), signed and sent byte for byte. */
  event: { id: string; type: string; payload: string } | null;
  webhook: Webhook | null;
  delivery: DeliveryState | null;
}

/** Where a delivery stands, as the sender needs it to know a message it has seen before. */
export interface DeliveryState {
  status: DeliveryStatus;
  round: number;
  /** The last try recorded in `round` (0: none, or recorded before this was kept). */
  attempt: number;
  /** The try whose follow-up is known queued (0: none); after the last try, its dead letter and alert. */
  followUpQueued: number;
  nextAttemptAt: string | null;
  /** Why it failed or was cancelled, as recorded. */
  reason: string | null;
}

export interface DeliveryStore {
  load(message: DeliveryMessage): Promise<LoadedDelivery>;
  /** Appends the attempt (if any) and sets the delivery's status; false, writing nothing, when the
   * delivery is in a newer round than the message's (a resend or redelivery since). With
   * `disableWebhook` (a try that met 410), disables the webhook in the same transaction, and only
   * while it still sends to `url`: false, writing nothing, too when it does not (its URL changed
   * while the try was in flight, or it is gone). */
  record(
    message: DeliveryMessage,
    update: {
      eventType: string;
      status: DeliveryStatus;
      attempt?: AttemptRecord;
      nextAttemptAt?: string | null;
      reason?: string;
      disableWebhook?: { url: string; reason: string };
    },
    at: Date,
  ): Promise<boolean>;
  /** Notes that the try's follow-up is queued: a copy of the message seen again queues nothing. */
  followUpQueued(message: DeliveryMessage): Promise<void>;
}

export type PostResult = { statusCode: number; retryAfter: string | null } | { error: string };

/** POSTs to the checked address (never re-resolving the host) within `timeoutMs`. */
export type WebhookPoster = (
  target: CheckedTarget,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<PostResult>;

export interface SenderSettings {
  /** Waits before try 2, 3, …: the contract's 5 s … 24 h, shortened by configuration in tests. */
  retryScheduleMs: number[];
  timeoutMs: number;
  policy: UrlPolicy;
  resolve: Resolver;
  /** 0.1 = each wait is drawn from ±10 % of its nominal value. */
  jitter: number;
}

export const USER_AGENT = 'Cambio-Webhooks/1';
/** A message may arrive a little before `notBefore` (clocks, rounding to whole seconds). */
const EARLY_TOLERANCE_MS = 1000;
/** The longest `Retry-After` honoured: the schedule's own longest wait. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export type SendOutcome = 'waiting' | 'succeeded' | 'retrying' | 'dead-lettered' | 'disabled' | 'cancelled' | 'duplicate' | 'dropped';

export interface SenderDeps {
  store: DeliveryStore;
  queue: DeliveryQueue;
  post: WebhookPoster;
  settings: SenderSettings;
  /** Opens each webhook's sealed secret to sign with (./webhook-secrets.ts). */
  sealer: WebhookSecretSealer;
  random?: () => number;
  now?: () => Date;
  /** The run's logger; stderr JSON when absent. */
  log?: Log;
  /** Told of a delivery given up for good, or failing for an hour (./webhook-alerts.ts mails the
   * endpoint's managers); throws when the mail may not have gone out, so the message comes back. */
  alert?: (failure: GivenUpDelivery, log: Log) => Promise<void>;
}

/**
 * One try of one message. Resolves once the message can be deleted (its follow-up, if any, is
 * queued); throws when it must be received again (the store, the queue or the sealer failed).
 */
export async function sendDelivery(deps: SenderDeps, message: DeliveryMessage): Promise<SendOutcome> {
  const clock = deps.now ?? (() => new Date());
  const now = clock();
  if (message.notBefore) {
    const remaining = Date.parse(message.notBefore) - now.getTime();
    if (remaining > EARLY_TOLERANCE_MS) {
      await deps.queue.send([{ message, delayMs: remaining }]);
      return 'waiting';
    }
  }
  const { event, webhook, delivery } = await deps.store.load(message);
  if (!event) {
    (deps.log ?? stderrLog).error('webhook delivery for a missing event', { ...message });
    return 'dropped';
  }
  // Before the webhook's own state: a late copy of a try already made (or of an older round) says
  // nothing new, and must not write `cancelled` over a delivery that succeeded.
  if (delivery?.status === 'succeeded' && delivery.round >= message.round) return 'duplicate';
  // A try of an older round, still in the queue when a resend or redelivery started a newer one:
  // that round's tries stand for it, so the endpoint is never given two schedules at once.
  if (delivery && delivery.round > message.round) return 'duplicate';
  if (!webhook || !webhook.enabled) {
    // A copy of the try that ended this round (its last, or the 410 that disabled the endpoint), come
    // back because something after its record failed, or SQS handed it over twice: the delivery
    // stays `failed` with its reason, never turned `cancelled`. If that try met 410 and its alert is
    // not known sent (the process died, or the mail failed, between), it is sent now, or the managers
    // never hear of it.
    if (delivery?.status === 'failed' && delivery.round === message.round && delivery.attempt >= message.attempt) {
      const goneUntold = webhook && delivery.reason === GONE_DELIVERY_REASON && webhook.disabledReason === GONE_WEBHOOK_REASON && delivery.attempt === message.attempt && delivery.followUpQueued < message.attempt;
      if (!goneUntold) return 'duplicate';
      await tellDisabled(deps, message, webhook, event);
      return 'disabled';
    }
    await deps.store.record(message, { eventType: event.type, status: 'cancelled', reason: webhook ? 'webhook disabled' : 'webhook deleted' }, now);
    return 'cancelled';
  }
  // This try was made already: SQS delivers a message twice now and then, and a batch whose run
  // timed out comes back whole. It is not made again, nor its follow-up queued a second time (that
  // would fork the retries in two); only a follow-up not known queued (the queue failed after the
  // try was recorded) is queued now.
  if (delivery && delivery.round === message.round && delivery.attempt >= message.attempt) {
    // The last try recorded failed, its dead letter and alert not known sent: the process died, or
    // the dead-letter queue or the mail failed, between the two. They are sent now, or never would be.
    const lastTry = message.attempt > deps.settings.retryScheduleMs.length;
    if (lastTry && delivery.attempt === message.attempt && delivery.status === 'failed' && delivery.followUpQueued < message.attempt) {
      await giveUp(deps, message, webhook, event, delivery.reason ?? `all ${message.attempt} tries failed`);
      return 'dead-lettered';
    }
    const followUpMissing = delivery.attempt === message.attempt && delivery.status === 'retrying' && delivery.followUpQueued < message.attempt && delivery.nextAttemptAt !== null;
    if (!followUpMissing) return 'duplicate';
    // The early alert this try owed is not known sent either (it is sent before the follow-up is
    // noted): sent now, the try's last error no longer at hand.
    const earlyAlert = crossesEarlyAlert(deps.settings.retryScheduleMs, message.attempt)
      ? stillFailing(deps.settings.retryScheduleMs, message, webhook, event, delivery.nextAttemptAt!, now, `its ${message.attempt} tries so far failed`)
      : null;
    await queueFollowUp(deps, message, delivery.nextAttemptAt!, Math.max(0, Date.parse(delivery.nextAttemptAt!) - now.getTime()), earlyAlert);
    return 'retrying';
  }

  const { settings } = deps;
  // A secret that cannot be opened (KMS unreachable or refusing) is not the receiver's failure: the
  // message is received again, as when the store fails.
  const secrets = await signingSecrets(deps.sealer, webhook, now);
  const timestamp = Math.floor(now.getTime() / 1000);
  const started = performance.now();
  let result: PostResult;
  try {
    const target = await checkWebhookUrl(webhook.url, settings.policy, settings.resolve);
    result = await deps.post(target, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        // Space-separated, the newest secret's first (Standard Webhooks).
        'webhook-signature': secrets.map((secret) => signWebhook(secret, event.id, timestamp, event.payload)).join(' '),
      },
      body: event.payload,
      timeoutMs: settings.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof UrlRefusedError)) throw error;
    result = { error: `url refused: ${error.message}` };
  }
  const attempt: AttemptRecord = {
    round: message.round,
    attempt: message.attempt,
    at: now.toISOString(),
    url: webhook.url,
    statusCode: 'statusCode' in result ? result.statusCode : null,
    durationMs: Math.round(performance.now() - started),
    error: 'error' in result ? result.error : null,
  };
  const eventType = event.type;

  if ('statusCode' in result && result.statusCode >= 200 && result.statusCode < 300) {
    await deps.store.record(message, { eventType, status: 'succeeded', attempt, nextAttemptAt: null }, now);
    return 'succeeded';
  }
  // A 410 disables the webhook in the same write that records the try: written apart, a failure
  // between the two brought the message back to a disabled webhook, which cancelled it, so the 410
  // never showed among the endpoint's attempts and its managers were never told. A 410 is the tried
  // URL's word: where the webhook was pointed elsewhere while the try was in flight, nothing is
  // written and it is an ordinary failure below, the next try going to the new URL (and where a
  // newer round began meanwhile, the record below writes nothing either: that round meets the 410).
  if ('statusCode' in result && result.statusCode === 410) {
    const gone = { eventType, status: 'failed' as const, attempt, nextAttemptAt: null, reason: GONE_DELIVERY_REASON, disableWebhook: { url: webhook.url, reason: GONE_WEBHOOK_REASON } };
    if (await deps.store.record(message, gone, now)) {
      await tellDisabled(deps, message, webhook, event);
      return 'disabled';
    }
  }
  const schedule = settings.retryScheduleMs;
  if (message.attempt <= schedule.length) {
    const random = deps.random ?? Math.random;
    let delayMs = Math.round(schedule[message.attempt - 1]! * (1 - settings.jitter + 2 * settings.jitter * random()));
    const retryAfterMs = 'statusCode' in result ? parseRetryAfter(result.retryAfter, now) : undefined;
    if (retryAfterMs !== undefined) delayMs = Math.max(delayMs, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
    const notBefore = new Date(now.getTime() + delayMs).toISOString();
    // Recorded before the next try is queued: if the queue fails, this message comes back and is
    // tried again rather than lost.
    // A newer round began while this try was made: its own tries go on, this round's end here.
    if (!(await deps.store.record(message, { eventType, status: 'retrying', attempt, nextAttemptAt: notBefore }, now))) return 'duplicate';
    const earlyAlert = crossesEarlyAlert(schedule, message.attempt)
      ? stillFailing(schedule, message, webhook, event, notBefore, now, `its ${message.attempt} tries so far failed; the last: ${attempt.error ?? `HTTP ${attempt.statusCode}`}`)
      : null;
    await queueFollowUp(deps, message, notBefore, delayMs, earlyAlert);
    return 'retrying';
  }
  const reason = `all ${message.attempt} tries failed; the last: ${attempt.error ?? `HTTP ${attempt.statusCode}`}`;
  if (!(await deps.store.record(message, { eventType, status: 'failed', attempt, nextAttemptAt: null, reason }, now))) return 'duplicate';
  await giveUp(deps, message, webhook, event, reason);
  return 'dead-lettered';
}

/** After the last try: the dead letter devops keep, the company's alert, then noted done (as a
 * follow-up is), so a copy of the message seen again sends neither twice. An alert that throws
 * leaves it not done: the message comes back and sends both again (the dead letter twice, rather
 * than the mail never). */
async function giveUp(deps: SenderDeps, message: DeliveryMessage, webhook: Webhook, event: { id: string; type: string; payload: string }, reason: string): Promise<void> {
  await deps.queue.sendToDeadLetter(message, reason);
  await deps.alert?.({ ...givenUp(message, webhook, event), reason, disabled: false, retrying: null }, deps.log ?? stderrLog);
  await deps.store.followUpQueued(message);
}

/** Why a webhook that answered 410 Gone was disabled, and why its delivery failed: how a copy of
 * that try, seen later, knows its alert may still be owed. */
const GONE_WEBHOOK_REASON = 'the endpoint answered 410 Gone';
const GONE_DELIVERY_REASON = 'webhook disabled: 410 Gone';

/** After the try that met 410 and disabled the endpoint: its managers' alert, then noted done (as a
 * follow-up is), so a copy of the message, were the endpoint enabled again, is not given up again.
 * Only once the alert is sent: the endpoint fails no event again to mail about, so a copy of the
 * message (come back after an alert that threw, or a sender that died) is its one other chance. */
async function tellDisabled(deps: SenderDeps, message: DeliveryMessage, webhook: Webhook, event: { id: string; type: string }): Promise<void> {
  await deps.alert?.({ ...givenUp(message, webhook, event), reason: 'it answered 410 Gone', disabled: true, retrying: null }, deps.log ?? stderrLog);
  await deps.store.followUpQueued(message);
}

/** The try after `message`'s, not before `notBefore`; then noted as queued. The early alert the try
 * owes goes between the two, so a sender that dies before it leaves the message to send it. One
 * whose mail fails is logged and left: the message come back would queue the next try again, and
 * two copies of it fork the endpoint's retries in two; the give-up mail still tells. */
async function queueFollowUp(deps: SenderDeps, message: DeliveryMessage, notBefore: string, delayMs: number, earlyAlert: GivenUpDelivery | null = null): Promise<void> {
  await deps.queue.send([{ message: { ...message, attempt: message.attempt + 1, notBefore }, delayMs }]);
  if (earlyAlert) await deps.alert?.(earlyAlert, deps.log ?? stderrLog).catch(() => undefined);
  await deps.store.followUpQueued(message);
}

/** An endpoint failing for an hour is worth telling its managers about, not only three days later
 * when the schedule gives up: on the contract's schedule, that is the fifth failed try (2 h 35 min
 * in). Measured on the schedule's nominal waits, so exactly one try of a round crosses it. */
export const EARLY_ALERT_AFTER_MS = 60 * 60_000;

function crossesEarlyAlert(schedule: readonly number[], attempt: number): boolean {
  const failingFor = (tries: number) => schedule.slice(0, tries - 1).reduce((sum, ms) => sum + ms, 0);
  return failingFor(attempt) >= EARLY_ALERT_AFTER_MS && failingFor(attempt - 1) < EARLY_ALERT_AFTER_MS;
}

/** The early alert: still retrying, the next try at `nextAttemptAt`, the last about the schedule's
 * remaining waits after `now`. */
function stillFailing(schedule: readonly number[], message: DeliveryMessage, webhook: Webhook, event: { id: string; type: string }, nextAttemptAt: string, now: Date, reason: string): GivenUpDelivery {
  const lastTryBy = new Date(now.getTime() + schedule.slice(message.attempt - 1).reduce((sum, ms) => sum + ms, 0)).toISOString();
  return { ...givenUp(message, webhook, event), reason, disabled: false, retrying: { nextAttemptAt, lastTryBy } };
}

const givenUp = (message: DeliveryMessage, webhook: Webhook, event: { id: string; type: string }) => ({
  companyId: message.companyId,
  webhookId: message.webhookId,
  url: webhook.url,
  eventId: event.id,
  eventType: event.type,
  round: message.round,
  attempt: message.attempt,
});

/** The secrets that sign a delivery now: the webhook's, and the one it replaced while that is still
 * within its 24 hours after `Roll secret`. */
async function signingSecrets(sealer: WebhookSecretSealer, webhook: Webhook, now: Date): Promise<string[]> {
  const current = await openSigningSecret(sealer, webhook);
  if (!webhook.previousSealedSecret || !webhook.previousSecretExpiresAt || webhook.previousSecretExpiresAt <= now.toISOString()) return [current];
  return [current, await openSigningSecret(sealer, { ...webhook, sealedSecret: webhook.previousSealedSecret })];
}

// In a module of their own so the settings schema (every function's bundle) takes them without this one.
export { CONTRACT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule.ts';
