import * as v from 'valibot';
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import type { ErrorCode } from '#functions/shared/errors';
import { ERROR_STATUS } from '#http/error-status';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from '#functions/shared/events';
import { ROUTES, AUTHORIZER, type RouteSpec } from '../routes.ts';
import { eventRecord, testEventRecord } from '../handlers/webhooks/records.ts';
import { INTRO } from './intro.ts';
import { networkTitles } from './network-words.ts';
import { ROUTE_DOCS, TAGS, type RouteDoc, type RouteKey } from './route-docs.ts';
import { patchDepositSplit, patchWebhookRequest, type Json } from './schema-patches.ts';
import { SERVERS, documentedPath } from './servers.ts';

/**
 * The OpenAPI 3.1 document (openapi.json), built from the route table, the valibot schemas the
 * handlers validate with and the records they answer with. `npm run openapi` writes it; a test
 * rebuilds it and fails when the committed file differs, so nobody edits it by hand.
 */

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Bodies are documented as sent: conversion stops before the first transformation (an amount
  // string becoming bigint minor units), and `check`s are described by metadata beside them.
  typeMode: 'input',
  ignoreActions: ['check', 'raw_check'],
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  // A choice of one is a constant: `network` while one network is registered (functions/networks/
  // names.ts) reads `const`, as the clients' generators expect, and becomes an enum with the second.
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    if (valibotSchema.type !== 'picklist') return undefined;
    const options = (jsonSchema as { enum?: unknown[] }).enum;
    return options?.length === 1 ? { const: options[0] as string } : undefined;
  },
};

const fieldError = v.strictObject({ path: v.string(), message: v.string() });

/** The contract's error envelope (../shared/api-contract.md, Conventions), `ErrorResponse`. */
const errorEnvelope = v.strictObject({
  success: v.literal(false),
  error: v.strictObject({
    code: v.picklist(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: v.pipe(v.string(), v.description('For people; match on `code`')),
    details: v.pipe(
      v.union([v.null(), v.array(fieldError), v.record(v.string(), v.unknown())]),
      v.description('`null`; for VALIDATION_FAILED the failing fields; for some codes an object (e.g. `existingId`, `minimum`)'),
    ),
  }),
});

const eventComponentName = (type: EventType | typeof TEST_EVENT_TYPE) =>
  `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;

export function routeKey(route: Pick<RouteSpec, 'method' | 'path'>): RouteKey {
  return `${route.method} ${route.path}`;
}

/** The codes a route can answer: those its shape implies plus its own, by HTTP status. */
export function routeErrorCodes(route: Pick<RouteSpec, 'method' | 'path'>, doc: RouteDoc): Map<number, ErrorCode[]> {
  // FORBIDDEN: a restricted key (read-only writing, or used from an address it does not allow), and
  // production's WAF, which can refuse any request before it reaches a route (lib/waf.ts).
  const codes = new Set<ErrorCode>(['AUTH_FAILED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL_ERROR']);
  if (route.path.includes('{id}')) codes.add('NOT_FOUND');
  if (doc.body) ['INVALID_JSON', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'].forEach((c) => codes.add(c as ErrorCode));
  if (doc.query) codes.add('VALIDATION_FAILED');
  if (route.method === 'POST') ['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'].forEach((c) => codes.add(c as ErrorCode));
  for (const code of doc.errors ?? []) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

export function buildOpenApiDocument(routes: readonly RouteSpec[] = ROUTES): Record<string, unknown> {
  const definitions: Record<string, v.GenericSchema> = {};
  const define = (name: string, schema: v.GenericSchema) => {
    if (definitions[name] && definitions[name] !== schema) throw new Error(`Two schemas named ${name}`);
    definitions[name] = schema;
  };
  const docs = routes.map((route) => {
    const doc = ROUTE_DOCS[routeKey(route)];
    if (!doc) throw new Error(`No OpenAPI description for ${routeKey(route)} (functions/openapi/route-docs.ts)`);
    if (doc.body) define(doc.body.name, doc.body.schema);
    define(doc.success.record.name, doc.success.record.schema);
    return { route, doc };
  });
  for (const type of EVENT_TYPES) define(eventComponentName(type), eventRecord(type));
  define(eventComponentName(TEST_EVENT_TYPE), testEventRecord);
  define('FieldError', fieldError);
  define('ErrorResponse', errorEnvelope);

  const schemas = toJsonSchemaDefs(definitions, CONVERSION) as Record<string, Json>;
  patchWebhookRequest(schemas.WebhookRequest);
  patchDepositSplit(schemas.CreateDepositRequest);
  for (const { doc } of docs) {
    const name = envelopeName(doc);
    schemas[name] ??= successEnvelope(doc) as Json;
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, doc } of docs) {
    (paths[documentedPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Cambio API',
      version: '1.0.0',
      summary: `USDT deposits and withdrawals on ${networkTitles('and')}, USDT → BRL conversions and signed webhooks`,
      description: INTRO,
      // The repository publishes no licence: the API and this description are not open source
      // (an SPDX `LicenseRef-` id, as Redocly's info-license-strict asks for an identifier or a URL).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: SERVERS,
    security: [{ ApiKey: [], ApiSecret: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: Object.fromEntries(([...EVENT_TYPES, TEST_EVENT_TYPE] as const).map((type) => [type, { post: eventOperation(type) }])),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: AUTHORIZER.identityHeaders[0], description: 'Your API key (`ck_test_…` in sandbox, `ck_live_…` in production)' },
        ApiSecret: { type: 'apiKey', in: 'header', name: AUTHORIZER.identityHeaders[1], description: 'Its secret (`cs_test_…` / `cs_live_…`). Both headers are required.' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the POST safe to retry: kept 24 h per company. The same key with the same body replays the first answer ' +
            'with `Idempotent-Replayed: true`; with another body → 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still ' +
            'running → 409 `IDEMPOTENCY_KEY_IN_USE`. A request that failed validation stores nothing. Use a UUID.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
        },
      },
      headers: {
        RequestId: { description: 'Unique id of this request: quote it to support', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before sending the request again', schema: { type: 'integer', minimum: 1 } },
        IdempotentReplayed: {
          description: '`true` when this answer is the stored answer to an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      schemas: sortKeys(schemas),
    },
  };
}

function operation(route: RouteSpec, doc: RouteDoc): Record<string, unknown> {
  const post = route.method === 'POST';
  const headers = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ...(post && { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }) };
  const parameters: unknown[] = [];
  if (route.path.includes('{id}')) {
    parameters.push({ name: 'id', in: 'path', required: true, description: 'The id; unknown, malformed or another company’s → 404', schema: { type: 'string' } });
  }
  if (doc.query) parameters.push(...queryParameters(doc.query.schema, doc.query.defaultLimit));
  if (post) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const responses: Record<string, unknown> = {
    [doc.success.status]: {
      description: doc.success.description,
      headers,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${envelopeName(doc)}` } } },
    },
  };
  // Every failure has the one error envelope; which codes this route answers with at a status is
  // said in the description and, for tools and tests, in `x-error-codes`.
  for (const [status, codes] of routeErrorCodes(route, doc)) {
    responses[status] = {
      description: codes.map((code) => `\`${code}\``).join(', '),
      // A throttled request says when to come back (contract, Conventions: 429 with Retry-After).
      headers: status === 429 ? { ...headers, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : headers,
      'x-error-codes': codes,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    };
  }
  return {
    operationId: doc.operationId,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description && { description: doc.description }),
    ...(parameters.length && { parameters }),
    ...(doc.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${doc.body.name}` }, example: doc.body.example } },
      },
    }),
    responses,
  };
}

/** The success envelope's component name: `DepositResponse`, or `ConversionList` for a page. */
export function envelopeName(doc: Pick<RouteDoc, 'success'>): string {
  return `${doc.success.record.name}${doc.success.list ? 'List' : 'Response'}`;
}

/** `{"success":true,"data":…}` around a record, plus `pagination` for a page (../shared/api-contract.md, Conventions). */
function successEnvelope(doc: RouteDoc): Record<string, unknown> {
  const record = { $ref: `#/components/schemas/${doc.success.record.name}` };
  if (!doc.success.list) {
    return {
      description: `A \`${doc.success.record.name}\` in the success envelope`,
      type: 'object',
      required: ['success', 'data'],
      additionalProperties: false,
      properties: { success: { const: true }, data: record },
    };
  }
  return {
    description: `A page of \`${doc.success.record.name}\` records, newest first, in the success envelope`,
    type: 'object',
    required: ['success', 'data', 'pagination'],
    additionalProperties: false,
    properties: {
      success: { const: true },
      data: { type: 'array', items: record },
      pagination: {
        type: 'object',
        required: ['nextCursor'],
        additionalProperties: false,
        properties: { nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page' } },
      },
    },
  };
}

/**
 * Query parameters from the handler's query schema. A `limit` arrives as a string that the schema
 * turns into a bounded number; it is documented as the integer it stands for.
 */
function queryParameters(schema: v.GenericSchema, defaultLimit: number): unknown[] {
  const entries = (schema as unknown as { entries: Record<string, v.GenericSchema> }).entries;
  return Object.entries(entries).map(([name, entry]) => {
    const wrapped = (entry as unknown as { wrapped?: v.GenericSchema }).wrapped ?? entry;
    const pipe = ((wrapped as unknown as { pipe?: { type: string; requirement?: unknown }[] }).pipe ?? []).flat();
    const bound = (type: string) => pipe.find((item) => item.type === type)?.requirement as number | undefined;
    const min = bound('min_value');
    const max = bound('max_value');
    const converted =
      min !== undefined && max !== undefined
        ? { type: 'integer', minimum: min, maximum: max, ...(name === 'limit' && { default: defaultLimit }) }
        : stripDialect(toJsonSchema(wrapped, CONVERSION) as Json);
    return {
      name,
      in: 'query',
      required: entry.type !== 'optional',
      description: name === 'limit' ? 'Page size' : name === 'cursor' ? '`pagination.nextCursor` of the previous page' : undefined,
      schema: converted,
    };
  });
}

function eventOperation(type: EventType | typeof TEST_EVENT_TYPE): Record<string, unknown> {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
    example,
  });
  return {
    operationId: `${eventComponentName(type).charAt(0).toLowerCase()}${eventComponentName(type).slice(1)}`,
    tags: ['Events' satisfies keyof typeof TAGS],
    summary: type,
    description:
      (type === TEST_EVENT_TYPE
        ? 'POSTed to one webhook when someone presses `Send test event` on its page in the dashboard; no webhook subscribes to it, ' +
          'not even with `*`. Ignore it, or use it to check your endpoint and its signature check. '
        : 'POSTed to every enabled webhook subscribed to this type (or to `*`). ') +
      'Verify the signature over the raw body ' +
      'before parsing it. Any 2xx within 15 s acknowledges it; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, ' +
      '10 h, 14 h, 20 h and 24 h. Order is not guaranteed: compare `data.updatedAt`.',
    security: [],
    parameters: [
      header('webhook-id', 'The event id (`evt_…`): the same on every retry, so deduplicate on it', 'evt_01JBZ6W1V7Q8R9S0T1A2V3W4X5'),
      header('webhook-timestamp', 'Unix seconds when this attempt was signed; refuse it if more than 5 minutes away from now', '1767225600'),
      header(
        'webhook-signature',
        'Space-separated `v1,<base64>` signatures: base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)), ' +
          'the key being the base64-decoded part of your secret after `whsec_`. Compare in constant time.',
        'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      ),
    ],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventComponentName(type)}` } } } },
    responses: {
      '200': { description: 'Any 2xx within 15 s: delivered' },
      '410': { description: 'Gone: Cambio disables the webhook' },
    },
  };
}

function stripDialect(schema: Json): Json {
  const { $schema: _, ...rest } = schema;
  return rest as Json;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
