import { newId } from './ids.ts';

/** The contract's event types (../shared/api-contract.md, Events and their delivery). */
export const EVENT_TYPES = [
  'deposit.confirming',
  'deposit.completed',
  'deposit.expired',
  'withdrawal.processing',
  'withdrawal.completed',
  'withdrawal.failed',
  'conversion.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** `Send test event` on the dashboard's endpoint page: delivered, signed, to that endpoint only.
 * Not a type an endpoint subscribes to (webhooks.ts subscribesTo). */
export const TEST_EVENT_TYPE = 'webhook.test';

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
