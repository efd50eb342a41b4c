import type { DynamoDBStreamEvent } from 'aws-lambda';
import { dispatchEvents, dispatchUndispatched, type DispatchableEvent, type DispatchOutcome } from '#functions/webhooks/webhook-delivery';
import { dynamoFrom } from '#adapters/runtime';
import { eventItem } from '#adapters/dynamo/items/event';
import { fromDynamoJson } from '#adapters/dynamo/items/item';
import { DynamoDispatchStore } from '#adapters/dynamo/event-dispatch-store';
import { deliveryQueueFrom } from '#adapters/webhooks/from-settings';
import { runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/webhook-dispatcher');
const { db, tableName } = dynamoFrom(settings);
const deps = { store: new DynamoDispatchStore(db, tableName), queue: deliveryQueueFrom(settings) };
const minAgeMs = settings.WEBHOOK_CATCH_UP_MIN_AGE_MS;

/**
 * The webhook dispatcher. On the table's stream (filtered to inserted Event items by the event
 * source mapping) it dispatches the new events; on its schedule, or the local runtime's timer, its
 * catch-up pass dispatches events still marked undispatched (a stream batch that failed for good, a redelivery).
 * An error fails the whole stream batch, which Lambda bisects and retries: events already sent
 * are sent again, a duplicate at most.
 */
export async function handler(event: Partial<DynamoDBStreamEvent> = {}, context?: { awsRequestId?: string }): Promise<DispatchOutcome> {
  return runJob(
    event.Records ? 'webhook dispatch' : 'webhook catch-up',
    context,
    async () =>
      event.Records
        ? dispatchEvents(deps, event.Records.flatMap((record) => insertedEvent(record.eventName, record.dynamodb?.NewImage)))
        : dispatchUndispatched(deps, { minAgeMs }),
    (outcome) => outcome.events > 0,
  );
}

type Image = NonNullable<NonNullable<DynamoDBStreamEvent['Records'][number]['dynamodb']>['NewImage']>;

function insertedEvent(eventName: string | undefined, image: Image | undefined): DispatchableEvent[] {
  // Checked here too: the filter is the stack's, and a replayed or hand-made batch may not have had it.
  if (eventName !== 'INSERT' || !image) return [];
  const item = fromDynamoJson(image as Parameters<typeof fromDynamoJson>[0]);
  return eventItem.isOne(item) ? [eventItem.dispatchableFromItem(item)] : [];
}
