import { newId } from './ids.ts';

import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from './event-types.ts';

export { EVENT_TYPES, TEST_EVENT_TYPE, type EventType };

/**
 * An event is written in the same transaction as the change that causes it, with the exact body
 * that will be delivered: the payload is serialised once, so every retry signs the same bytes.
 */
export interface DomainEvent {
  id: string;
  companyId: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  createdAt: string;
  /** `{id, type, createdAt, data}` as JSON: the webhook body. */
  payload: string;
}

export function domainEvent(companyId: string, type: DomainEvent['type'], data: unknown, now: Date): DomainEvent {
  const id = newId('event', now.getTime());
  const createdAt = now.toISOString();
  return { id, companyId, type, createdAt, payload: JSON.stringify({ id, type, createdAt, data }) };
}
