import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { itemsUnder } from '#adapters/dynamo/queries';
import { eventItem } from '#adapters/dynamo/items/event';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { systemResolver } from '#adapters/webhooks/dns-resolver';
import type { WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import { createWebhook, type Webhook, type WebhookInput, type WebhookStore } from '#functions/webhooks/webhooks';

/**
 * A company's stored records as the tests and the bench inspect them (no vitest here, so the bench
 * can use them too), read consistently through the records' own keys.
 */
export interface StoredEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The company's events, oldest first: the payload each one carries to webhooks. */
export async function storedEvents(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<StoredEvent[]> {
  const items = await itemsUnder(db, tableName, eventItem.ofCompany(companyId));
  return items.map((item) => JSON.parse(item.payload as string) as StoredEvent);
}

/** The company's ledger entries as stored, oldest first. */
export function storedLedgerEntries(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<Record<string, unknown>[]> {
  return itemsUnder(db, tableName, ledgerEntryItem.ofCompany(companyId));
}

/** A webhook registered as POST /v1/webhooks registers it (URL rules with the local runtime's
 * loopback allowance, the secret sealed), with the secret a receiver verifies with. */
export async function registeredWebhook(store: WebhookStore, sealer: WebhookSecretSealer, companyId: string, input: WebhookInput): Promise<Webhook & { secret: string }> {
  const { webhook, secret } = await createWebhook(store, { policy: { allowLoopbackHttp: true }, resolve: systemResolver }, sealer, companyId, input);
  return { ...webhook, secret };
}
