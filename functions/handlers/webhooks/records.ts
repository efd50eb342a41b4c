import * as v from 'valibot';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from '#functions/shared/events';
import { idField, timeField } from '#http/fields';
import { conversionRecord } from '../conversions/records.ts';
import { depositRecord } from '../deposits/records.ts';
import { withdrawalRecord } from '../withdrawals/records.ts';

/** The webhook record (../shared/api-contract.md, Webhooks): never the secret. */
export const webhookRecord = v.strictObject({
  id: idField('whk'),
  url: v.string(),
  events: v.union([v.array(v.picklist(EVENT_TYPES)), v.strictTuple([v.literal('*')])]),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  createdAt: timeField,
  updatedAt: timeField,
});

/** POST /v1/webhooks: the record plus the signing secret, shown only in this response. */
export const createdWebhookRecord = v.strictObject({
  ...webhookRecord.entries,
  secret: v.pipe(
    v.string(),
    v.regex(/^whsec_[A-Za-z0-9+/]{32}$/),
    v.description('Standard Webhooks signing secret: `whsec_` + base64 of 24 random bytes. Shown once: store it.'),
  ),
});

/** DELETE /v1/webhooks/{id}. */
export const deletedWebhookRecord = v.strictObject({ id: idField('whk'), deleted: v.literal(true) });

/** What each event carries in `data` (../shared/api-contract.md, Events and their delivery): the
 * record as it was when the event was written. */
export const EVENT_DATA = {
  'deposit.confirming': depositRecord,
  'deposit.completed': depositRecord,
  'deposit.expired': depositRecord,
  'deposit.held': depositRecord,
  'deposit.transfer_reversed': depositRecord,
  'withdrawal.processing': withdrawalRecord,
  'withdrawal.completed': withdrawalRecord,
  'withdrawal.failed': withdrawalRecord,
  'conversion.completed': conversionRecord,
} satisfies Record<EventType, v.GenericSchema>;

/** The body POSTed to a webhook's url for one event type. */
export const eventRecord = <T extends EventType>(type: T) =>
  v.strictObject({
    id: v.pipe(idField('evt'), v.description('The event id; also the `webhook-id` header: deduplicate on it')),
    type: v.literal(type),
    createdAt: timeField,
    data: EVENT_DATA[type] as (typeof EVENT_DATA)[T],
  });

/** `webhook.test`: sent by the dashboard's `Send test event` to one endpoint (never by subscription);
 * its `data` names the endpoint it was sent to. */
export const testEventRecord = v.strictObject({
  id: v.pipe(idField('evt'), v.description('The event id; also the `webhook-id` header')),
  type: v.literal(TEST_EVENT_TYPE),
  createdAt: timeField,
  data: v.strictObject({
    webhookId: idField('whk'),
    url: v.string(),
    message: v.string(),
  }),
});
