import * as v from 'valibot';
import { EVENT_TYPES } from '#functions/shared/events';
import { urlSyntaxProblem } from '#functions/webhooks/webhook-url';
import type { WebhookEvents } from '#functions/webhooks/webhooks';
import { listQuery } from '#http/fields';

const EVENTS_MESSAGE = `must be a non-empty list of event types (${EVENT_TYPES.join(', ')}) or ["*"]`;

/** A list of the contract's event types, or `["*"]` alone; repeats are dropped, order kept. */
const eventsField = v.pipe(
  v.array(v.string(EVENTS_MESSAGE), EVENTS_MESSAGE),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const events = [...new Set(dataset.value)];
    if (events.length === 0) {
      addIssue({ message: EVENTS_MESSAGE });
      return NEVER;
    }
    if (events.includes('*')) {
      if (events.length > 1) {
        addIssue({ message: '"*" subscribes to every event and must be the only entry' });
        return NEVER;
      }
      return ['*'] as WebhookEvents;
    }
    const unknown = events.filter((event) => !(EVENT_TYPES as readonly string[]).includes(event));
    if (unknown.length) {
      addIssue({ message: `unknown event type ${unknown.map((event) => `"${event}"`).join(', ')}; ${EVENTS_MESSAGE}` });
      return NEVER;
    }
    return events as WebhookEvents;
  }),
);

const urlField = v.pipe(
  v.string('must be an https:// URL string'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = urlSyntaxProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

/** POST /v1/webhooks and PUT /v1/webhooks/{id} (../shared/api-contract.md, Webhooks). */
export const webhookBody = v.strictObject({
  url: urlField,
  events: eventsField,
  description: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(500, 'must be at most 500 characters')))),
  enabled: v.optional(v.boolean('must be true or false')),
});

/** GET list query: the one every list route takes. */
export const listWebhooksQuery = listQuery;
