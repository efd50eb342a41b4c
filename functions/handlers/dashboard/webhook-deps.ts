import { dynamoFrom } from '#adapters/runtime';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoWebhookEndpointStore } from '#adapters/dynamo/webhook-endpoint-store';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { webhookSecretSealerFrom } from '#adapters/webhook-secrets/from-settings';
import { deliveryQueueFrom, webhookUrlRulesFrom } from '#adapters/webhooks/from-settings';
import { functionSettings } from '#functions/settings/functions';

/** What the Webhooks pages' route modules (./*-webhook*.ts, ./*-endpoint*.ts) share, made once per
 * cold start: the same registry, URL rules and sealer as /v1's webhook routes, and the delivery
 * queue the dispatcher feeds. */
// Every Webhooks route has the same slice (functions/settings/functions.ts, dashboardWebhooks).
const settings = functionSettings('dashboard/add-webhook');
const { db, tableName } = dynamoFrom(settings);

export const memberships = new DynamoMembershipStore(db, tableName);
export const registry = new DynamoWebhookRegistry(db, tableName);
export const pages = new DynamoWebhookEndpointStore(db, tableName);
export const urlRules = webhookUrlRulesFrom(settings);
export const sealer = webhookSecretSealerFrom(settings);
export const queue = deliveryQueueFrom(settings);
