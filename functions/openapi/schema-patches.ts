import type { JsonSchema } from '@valibot/to-json-schema';
import { EVENT_TYPES } from '#functions/shared/events';

export type Json = JsonSchema & Record<string, unknown>;

/* What valibot's JSON Schema conversion cannot carry (rules in a rawTransform or rawCheck), added to
 * the converted request schemas by buildOpenApiDocument. Each throws when the schema it patches
 * lost the fields it expects, so a renamed field cannot silently drop its documentation. */

/** What valibot cannot say about the webhook body: its rules live in a rawTransform and a rawCheck. */
export function patchWebhookRequest(schema: Json | undefined): void {
  const properties = schema?.properties as Record<string, Json> | undefined;
  if (!properties?.events || !properties.url) throw new Error('WebhookRequest lost its url or events: update patchWebhookRequest');
  properties.url.format = 'uri';
  properties.url.description = '`https://` URL resolving to public addresses only (the local runtime also allows `http://` loopback)';
  properties.events.minItems = 1;
  properties.events.items = { type: 'string', enum: [...EVENT_TYPES, '*'] };
  properties.events.description = 'Event types to receive, or `["*"]` alone for all of them';
}

/**
 * `split` takes exactly one of `percent` and `amount` (the handler's rawCheck). Said as a `oneOf`
 * of two complete objects, each forbidding the other's field (a `false` schema), so that
 * generators keep it: openapi-typescript makes it a union whose members type the other field as
 * `never`, and `{ percent, amount }` no longer type-checks.
 */
export function patchDepositSplit(schema: Json | undefined): void {
  const properties = schema?.properties as Record<string, Json> | undefined;
  const split = properties?.split;
  const fields = split?.properties as Record<string, Json> | undefined;
  if (!split || !fields?.address || !fields.percent || !fields.amount) throw new Error('CreateDepositRequest lost split.address/percent/amount: update patchDepositSplit');
  const variant = (field: 'percent' | 'amount', other: 'percent' | 'amount') => ({
    type: 'object',
    properties: { address: fields.address, [field]: fields[field], [other]: false },
    required: ['address', field],
    additionalProperties: false,
  });
  properties.split = {
    description: 'Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both',
    oneOf: [variant('percent', 'amount'), variant('amount', 'percent')],
  } as Json;
}
