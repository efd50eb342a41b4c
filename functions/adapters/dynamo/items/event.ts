import { encodeTime } from 'ulid';
import type { StoredEvent } from '#functions/companies/activity';
import type { DomainEvent } from '#functions/shared/events';
import type { DispatchableEvent } from '#functions/webhooks/webhook-delivery';
import { toBigInt } from '../client.ts';
import { companyPartition, companyRecord, type Item } from './item.ts';

/** The smallest event id created at `time`: events before it sort below it (ids are ULIDs). */
export function eventIdBound(time: Date): string {
  return `evt_${encodeTime(time.getTime(), 10)}`;
}

const UNDISPATCHED = 'EVENTS#UNDISPATCHED';

/**
 * The one owner of a stored `Event` (docs/data-model.md): its keys, the sparse GSI1 mark of an
 * event not yet handed to the webhook dispatcher, and its item in both directions. The event's
 * type is stored as `eventType` (`type` is the item's entity, on every item).
 */
export const eventItem = {
  ...companyRecord('Event', 'EVENT#'),
  /** A company's events created in [from, to): ids are ULIDs, so a time bound is an id bound. */
  between: (companyId: string, from: Date, to: Date) => ({
    PK: companyPartition(companyId),
    from: `EVENT#${eventIdBound(from)}`,
    to: `EVENT#${eventIdBound(to)}~`,
  }),
  /** GSI1, sparse: set while the event waits for the dispatcher; removed once dispatched. */
  undispatchedMark: (eventId: string) => ({ GSI1PK: UNDISPATCHED, GSI1SK: eventId }),
  undispatchedPartition: UNDISPATCHED,

  toItem: (event: DomainEvent): Item => ({
    ...eventItem.head(event.companyId, event.id),
    ...eventItem.undispatchedMark(event.id),
    id: event.id,
    companyId: event.companyId,
    eventType: event.type,
    createdAt: event.createdAt,
    payload: event.payload,
  }),

  /** What the dispatcher needs; `round` (redeliveries requested) is absent until the first one. */
  dispatchableFromItem: (item: Item): DispatchableEvent => ({
    id: item.id as string,
    companyId: item.companyId as string,
    type: item.eventType as string,
    round: item.round === undefined || item.round === null ? 0 : Number(toBigInt(item.round)),
  }),

  /** What the sender signs and sends: the stored body, byte for byte. */
  deliverableFromItem: (item: Item): { id: string; type: string; payload: string } => ({
    id: item.id as string,
    type: item.eventType as string,
    payload: item.payload as string,
  }),

  /** What the dashboard's Activity shows: the body as delivered, and when it was handed on. */
  shownFromItem: (item: Item): StoredEvent => ({
    id: item.id as string,
    type: item.eventType as string,
    createdAt: item.createdAt as string,
    payload: item.payload as string,
    dispatchedAt: (item.dispatchedAt as string | undefined) ?? null,
  }),

  isOne: (item: Item | undefined): boolean => item?.type === eventItem.type,
};
