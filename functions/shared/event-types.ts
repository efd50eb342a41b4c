/**
 * The contract's event types (../shared/api-contract.md, Events and their delivery). A module with
 * no imports, so the dashboard's pages (dashboard/src/activity/tabs.ts,
 * dashboard/src/webhooks/endpoint-form.tsx) list the same types.
 */
export const EVENT_TYPES = [
  'deposit.confirming',
  'deposit.completed',
  'deposit.expired',
  /** Funds arrived but cannot be credited: the deposit address is frozen by the token's issuer
   * (`holdReason: "address_frozen"`), or the paying address is on the sanctions list
   * (`"sender_sanctioned"`). Recorded, not in `available`, until released (../shared/networks.md). */
  'deposit.held',
  /** A transfer the deposit showed is gone: a reorganisation removed it before it was final, or
   * its transaction failed. The deposit shows what remains (back to `awaiting_payment` when
   * nothing does); nothing it carried was credited. */
  'deposit.transfer_reversed',
  'withdrawal.processing',
  'withdrawal.completed',
  'withdrawal.failed',
  'conversion.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** `Send test event` on the dashboard's endpoint page: delivered, signed, to that endpoint only.
 * Not a type an endpoint subscribes to (functions/webhooks/webhooks.ts subscribesTo). */
export const TEST_EVENT_TYPE = 'webhook.test';
