import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as v from 'valibot';
import { ApiError, validationFailed } from '#functions/shared/errors';
import { accessAllows, ipAllowed, type ApiKeyAccess, type Environment } from '#functions/api-keys/api-keys';
import { errorEnvelope, JSON_HEADERS, successEnvelope } from './envelope.ts';
import { validate } from './validation.ts';
import { parseIdempotencyKey, requestFingerprint, runIdempotently, type IdempotencyScope, type IdempotencyStore } from './idempotency.ts';
import { logRequest, requestLog } from './access-log.ts';
import { ERROR_STATUS } from './error-status.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting.ts';

/** The contract's body limit. API Gateway's own limit is 10 MB, so the handler enforces ours. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface AuthorizedRequest<TBody> {
  companyId: string;
  environment: Environment;
  body: TBody;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string>;
  requestId: string;
  /** The Idempotency-Key this request claimed, when it carries one on a route with an idempotency
   * store: a route whose work is one transaction stores its answer in it (RouteResult.answerStored). */
  idempotency?: IdempotencyScope;
}

export interface RouteResult {
  status?: number;
  data: unknown;
  headers?: Record<string, string>;
  pagination?: { nextCursor: string | null };
  /** The answer (idempotency.ts `storedAnswer(status, data)`) was stored for `request.idempotency` in the route's
   * own transaction: not to be stored again. */
  answerStored?: boolean;
}

type Handler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;

/** The cause of each 500, by event, for its log line (the caller sees no detail). */
export const unexpectedErrors = new WeakMap<APIGatewayProxyEvent, unknown>();

/**
 * Wraps a route's function in the middleware every /v1 handler shares: header normalisation and
 * the body limit, JSON parsing (for routes with a body), valibot validation, the envelope, and
 * one error mapping in which anything unexpected becomes a 500 with no detail. Every answer,
 * whichever path produced it, leaves one log line (./access-log.ts).
 */
export function httpRoute<TSchema extends v.GenericSchema | undefined = undefined>(
  options: { body?: TSchema; idempotency?: IdempotencyStore },
  fn: (request: AuthorizedRequest<TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined>) => Promise<RouteResult>,
): Handler {
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(envelopeErrors()).use(keyAccess()).use(normaliseRequest(options.body !== undefined));
  if (options.body) stack.use(httpJsonBodyParser());
  const handler = stack.handler(async (event) => {
    const requestId = event.requestContext.requestId;
    const auth = authorizerContext(event);
    const headers = event.headers as Record<string, string>;
    const idempotencyKey = headers['idempotency-key'];
    const scope =
      options.idempotency && idempotencyKey !== undefined
        ? {
            companyId: auth.companyId,
            key: parseIdempotencyKey(idempotencyKey),
            fingerprint: requestFingerprint(event.httpMethod, event.resource, event.body),
            claim: randomUUID(),
          }
        : undefined;
    // Validation runs before the key is claimed: a request that fails it stores nothing.
    const body = options.body ? validate(options.body, requireJsonObject(event.body)) : undefined;
    const request = {
      ...auth,
      body: body as never,
      pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
      query: (event.queryStringParameters ?? {}) as Record<string, string>,
      headers,
      requestId,
      idempotency: scope,
    };
    const execute = async () => {
      try {
        const result = await fn(request);
        return {
          statusCode: result.status ?? 200,
          headers: result.headers,
          body: successEnvelope(result.data, result.pagination),
          leaveKey: result.answerStored,
        };
      } catch (error) {
        // IDEMPOTENCY_KEY_IN_USE from the route's own transaction: its claim was taken over.
        const claimLost = error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE';
        return { ...toErrorResponse(error, event), headers: undefined, leaveKey: claimLost };
      }
    };
    const response = scope && options.idempotency ? await runIdempotently(options.idempotency, scope, execute, requestLog(requestId)) : await execute();
    return {
      statusCode: response.statusCode,
      headers: {
        ...JSON_HEADERS,
        'X-Request-Id': requestId,
        ...response.headers,
        ...('replayed' in response && response.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      },
      body: response.body,
    };
  }) as unknown as Handler;
  return withRequestLog(handler, (event) =>
    typeof event.requestContext?.authorizer?.companyId === 'string' ? event.requestContext.authorizer.companyId : null,
  );
}

/** One access-log line per request, for the /v1 and the dashboard
 * routes alike; `companyOf` says where each finds the caller's company. */
export function withRequestLog(handler: Handler, companyOf: (event: APIGatewayProxyEvent) => string | null): Handler {
  return async (event, context) => {
    const started = performance.now();
    const response = await handler(event, context);
    logRequest({
      requestId: event.requestContext?.requestId ?? 'unknown',
      route: `${event.httpMethod} ${event.resource}`,
      status: response.statusCode,
      code: response.statusCode >= 400 ? errorCodeOf(response.body) : null,
      latencyMs: Math.round(performance.now() - started),
      companyId: companyOf(event),
      replayed: response.headers?.['Idempotent-Replayed'] === 'true',
      error: unexpectedErrors.get(event),
    });
    return response;
  };
}

export function errorCodeOf(body: string): string | null {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

/** Every /v1 body is a JSON object; valibot would let an array through to field-by-field checks. */
export function requireJsonObject(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body;
  throw validationFailed([{ path: '(root)', message: 'must be a JSON object' }]);
}

function authorizerContext(event: APIGatewayProxyEvent): { companyId: string; environment: Environment } {
  const context = event.requestContext.authorizer;
  const companyId = context?.companyId;
  const environment = context?.environment;
  // Only reachable if a route is deployed without the authorizer: fail closed, as a 500.
  if (typeof companyId !== 'string' || (environment !== 'sandbox' && environment !== 'production')) {
    throw new Error('Route invoked without an authorizer context');
  }
  return { companyId, environment };
}

/** What the key may do is checked first, before the body is read or the Idempotency-Key claimed:
 * a request from an address the key does not allow, or a read-only key's write, is a 403 that
 * names the reason, and nothing is written. */
function keyAccess(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: ({ event }) => {
      const allowedIps = String(event.requestContext.authorizer?.allowedIps ?? '');
      const sourceIp = event.requestContext.identity?.sourceIp ?? '';
      if (allowedIps && !ipAllowed(allowedIps.split(' '), sourceIp)) {
        throw new ApiError('FORBIDDEN', `This API key may not be used from ${sourceIp}: the dashboard lists the addresses it allows.`);
      }
      const access = (event.requestContext.authorizer?.access ?? 'full') as ApiKeyAccess;
      if (!accessAllows(access, event.httpMethod)) {
        throw new ApiError('FORBIDDEN', 'This API key is read-only: it may only read (GET). Use a key with full access to make changes.');
      }
    },
  };
}

export function normaliseRequest(expectsBody: boolean): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const event = request.event;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(event.headers ?? {})) {
        if (value !== undefined) headers[name.toLowerCase()] = value;
      }
      event.headers = headers;
      if (!expectsBody) return;
      const raw = event.body ?? '';
      const size = event.isBase64Encoded ? Buffer.from(raw, 'base64').length : Buffer.byteLength(raw, 'utf8');
      if (size > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than 16 KiB');
      // A POST without a body is validated as an empty object, so the caller learns which fields
      // are required rather than being told about a content type they never sent.
      if (size === 0) {
        event.body = '{}';
        event.isBase64Encoded = false;
        headers['content-type'] = 'application/json';
        return;
      }
      // Media types compare case-insensitively, parameters (charset) aside (contract, Conventions;
      // RFC 9110 §8.3.1): the JSON parser's own check is case-sensitive.
      if (headers['content-type'] !== undefined) headers['content-type'] = lowerCaseMediaType(headers['content-type']);
      // application/json alone (contract: "a body with another Content-Type gets 415"): the JSON
      // parser would also take any `+json` type (application/problem+json, …) as JSON.
      if (headers['content-type'] !== undefined && headers['content-type'].split(';')[0]!.trim() !== 'application/json') {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
      }
      // Before the body is parsed, so nothing downstream (valibot, the idempotency fingerprint) ever
      // walks a value deep enough to overflow the stack.
      if (nestsDeeperThan(event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw, MAX_JSON_DEPTH)) {
        throw validationFailed([{ path: '(root)', message: `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep` }]);
      }
    },
  };
}

/** `Application/JSON ; charset=UTF-8` → `application/json; charset=UTF-8`. */
function lowerCaseMediaType(value: string): string {
  const separator = value.indexOf(';');
  return separator === -1 ? value.trim().toLowerCase() : `${value.slice(0, separator).trim().toLowerCase()};${value.slice(separator + 1)}`;
}

export function envelopeErrors(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = request.error;
      const requestId = request.event?.requestContext?.requestId ?? 'unknown';
      const { statusCode, body } = toErrorResponse(error, request.event);
      request.response = { statusCode, headers: { ...JSON_HEADERS, 'X-Request-Id': requestId }, body };
    },
  };
}

export function toErrorResponse(error: unknown, event: APIGatewayProxyEvent): { statusCode: number; body: string } {
  if (error instanceof ApiError) {
    // A refusal's cause (an upstream's failure) goes to the request's log line, never to the caller.
    if (event && error.cause !== undefined) unexpectedErrors.set(event, error.cause);
    return { statusCode: ERROR_STATUS[error.code], body: errorEnvelope(error.code, error.message, error.details) };
  }
  const cause = (error as { cause?: { package?: string } } | null)?.cause;
  if (cause?.package === '@middy/http-json-body-parser') {
    return (error as Error).message === 'Unsupported Media Type'
      ? { statusCode: 415, body: errorEnvelope('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json') }
      : { statusCode: 400, body: errorEnvelope('INVALID_JSON', 'The request body is not valid JSON') };
  }
  // The cause goes to the request's log line, never to the caller.
  if (event) unexpectedErrors.set(event, error);
  return { statusCode: 500, body: errorEnvelope('INTERNAL_ERROR', 'An unexpected error occurred') };
}
