import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { AUTHORIZER, DASHBOARD_API, DASHBOARD_DOWNLOADS, DASHBOARD_ROUTES, DOWNLOAD_TIMEOUT_SECONDS, ROUTES, SESSION_AUTHORIZER, type DashboardRouteSpec, type RouteSpec } from '#functions/routes';
import { gatewayResponse, SESSION_ENDED, type GatewayResponseType } from '#http/gateway-responses';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';
import { TokenBucket, TokenBuckets } from '#functions/api-keys/rate-limits';
import type { StageConfig } from '../config/stages.ts';
import { isDocsRequest, serveDocs } from './docs-route.ts';
import { isDashboardAppRequest, serveDashboardApp } from './dashboard-app.ts';
import { installLambdaStreaming, isStreamingHandler, LocalResponseStream, type StreamingHandler } from './lambda-response-stream.ts';

/**
 * The local stand-in for API Gateway's REST API: it matches the route table, runs the same REQUEST
 * authorizer (with a per key-and-secret cache, as API Gateway does), turns each request into the
 * same proxy event a Lambda receives, and answers with the same gateway responses.
 */
type ProxyHandler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: unknown) => Promise<APIGatewayAuthorizerResult>;

/** API Gateway's own payload limit; the handlers enforce the contract's smaller one. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** API Gateway's REST API quotas: the request line and the header values together, and the URL of
 * a regional API, at most 10,240 bytes each. */
const GATEWAY_MAX_REQUEST_HEAD_BYTES = 10_240;
const GATEWAY_MAX_URL_BYTES = 10_240;
/** Node's parser counts header names and separators as well, so its own limit sits above the
 * gateway's and the gateway's measure decides; a head beyond it fails in the parser and gets the
 * same answer through 'clientError'. */
const NODE_MAX_HEADER_BYTES = 32 * 1024;
/** How long a refused connection may keep sending before it is closed (see answerClientError). */
const CLIENT_ERROR_LINGER_MS = 2_000;
const API_ID = 'local';

interface CompiledRoute {
  spec: RouteSpec;
  /** Which authorizer guards it: the API key one (/v1), the session one, or none (public dashboard routes). */
  auth: 'apiKey' | 'session' | 'public';
  pattern: RegExp;
  parameterNames: string[];
  handler: ProxyHandler | StreamingHandler;
}

export interface LocalApiOptions {
  config: StageConfig;
  routes?: readonly RouteSpec[];
  /** The dashboard's API; defaults to DASHBOARD_ROUTES, or to none when `routes` is given (a test
   * serving a few /v1 routes needs no user pool). */
  dashboardRoutes?: readonly (RouteSpec & { auth: 'public' | 'session' })[];
  /** The built dashboard app's folder, served at /dashboard/; null serves none. */
  dashboardAppDir?: string | null;
  /** Loads a handler module by its route-table name; defaults to importing functions/<name>.ts. */
  loadHandler?: (name: string) => Promise<unknown>;
}

const FUNCTIONS_DIR = fileURLToPath(new URL('../functions/handlers/', import.meta.url));

async function importHandler(name: string): Promise<unknown> {
  // A path, not a file: URL: under vitest a module imported by URL resolves its own relative
  // dynamic imports (functions/handlers/dashboard/api.ts) against the URL as if it were a path.
  const module = (await import(/* @vite-ignore */ join(FUNCTIONS_DIR, `${name}.ts`))) as { handler: unknown };
  return module.handler;
}

export async function createLocalApi(options: LocalApiOptions): Promise<Server> {
  const load = options.loadHandler ?? importHandler;
  // Before any handler loads: a streaming one is wrapped by `awslambda.streamifyResponse` at import.
  installLambdaStreaming();
  const routes: CompiledRoute[] = [];
  const specs = [
    ...(options.routes ?? ROUTES).map((spec) => ({ spec, auth: 'apiKey' as const })),
    ...(options.dashboardRoutes ?? (options.routes ? [] : [...DASHBOARD_ROUTES, ...DASHBOARD_DOWNLOADS])).map((spec) => ({ spec, auth: spec.auth })),
  ];
  for (const { spec, auth } of specs) {
    const parameterNames: string[] = [];
    const source = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      parameterNames.push(name);
      return '([^/]+)';
    });
    // The dashboard's routes go through its one Lambda's dispatcher, as in AWS (functions/handlers/dashboard/api.ts).
    const module = auth !== 'apiKey' && DASHBOARD_ROUTES.includes(spec as DashboardRouteSpec) ? DASHBOARD_API.handler : spec.handler;
    routes.push({ spec, auth, pattern: new RegExp(`^${source}/?$`), parameterNames, handler: (await load(module)) as ProxyHandler | StreamingHandler });
  }
  const authorizers = {
    apiKey: { ...AUTHORIZER, handler: (await load(AUTHORIZER.handler)) as AuthorizerHandler, name: AUTHORIZER.handler },
    session: specs.some((s) => s.auth === 'session')
      ? { ...SESSION_AUTHORIZER, handler: (await load(SESSION_AUTHORIZER.handler)) as AuthorizerHandler, name: SESSION_AUTHORIZER.handler }
      : undefined,
  };
  const authorizerCache = new Map<string, { result: APIGatewayAuthorizerResult | 'unauthorized'; expiresAt: number }>();
  // API Gateway's two throttles, in its order: the stage's for every request, then (after the
  // authorizer named the company's key) the company's usage plan (functions/api-keys/rate-limits.ts).
  const stageBucket = new TokenBucket(options.config.throttle, Date.now());
  const companyBuckets = new TokenBuckets(options.config.companyRateLimit);

  const server = createServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The client went, or its body broke off and the parser's refusal answered (answerClientError).
      if ((error as { code?: string }).code === 'ECONNRESET') return;
      console.error(JSON.stringify({ level: 'error', message: 'Local gateway failure', error: String(error) }));
      if (!res.headersSent) sendGateway(res, 'DEFAULT_5XX', randomUUID());
    });
  });
  // Node answers these itself by default, in plain text or with a reset; API Gateway answers in the
  // envelope (contract, Conventions: "Envelope on every response").
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => sendGateway(res, 'DEFAULT_4XX', randomUUID(), 417));
  return server;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const tooLong = requestHeadTooLong(req);
    if (tooLong) return refuseUnread(req, res, tooLong, requestId);
    const url = parseUrl(req.url ?? '/');
    if (!url) return refuseUnread(req, res, 400, requestId);
    const method = (req.method ?? 'GET').toUpperCase();
    // The reference page and openapi.json: static, unauthenticated, before the route table.
    if (isDocsRequest(method, url.pathname)) return serveDocs(url.pathname, res);
    // The dashboard's static app (CloudFront and S3 in AWS); its API is in the route table.
    if (options.dashboardAppDir && isDashboardAppRequest(method, url.pathname)) {
      // The page at another name of this host (localhost for 127.0.0.1) would send an Origin the
      // API refuses: it moves to DASHBOARD_ORIGIN, as lib/dashboard-edge.ts moves it to the custom domain.
      const origin = process.env.DASHBOARD_ORIGIN;
      if (origin && req.headers.host !== new URL(origin).host) {
        res.writeHead(308, { Location: `${origin}${url.pathname}${url.search}` });
        res.end();
        return;
      }
      return serveDashboardApp(options.dashboardAppDir, url.pathname, res);
    }
    const body = await readBody(req);
    if (body === 'too-large') return sendGateway(res, 'REQUEST_TOO_LARGE', requestId);
    const stageTurn = stageBucket.take(Date.now());
    if (!stageTurn.allowed) return sendThrottled(res, requestId, stageTurn.retryAfterSeconds);

    const match = matchRoute(method, url.pathname);
    if (!match) return sendGateway(res, 'MISSING_AUTHENTICATION_TOKEN', requestId);
    const { route, pathParameters } = match;

    const headers = singleValueHeaders(req);
    const methodArn = `arn:aws:execute-api:local:000000000000:${API_ID}/${options.config.stage}/${method}${url.pathname}`;
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const authorization = route.auth === 'public' ? { principalId: undefined, context: {} } : await authorize(headers, methodArn, url.pathname, route, requestId, sourceIp);
    if ('denied' in authorization && authorization.denied) {
      // The dashboard's API has its own answer for a refused session, as in AWS (lib/dashboard.ts).
      if (route.auth === 'session' && (authorization.denied === 'UNAUTHORIZED' || authorization.denied === 'ACCESS_DENIED')) {
        res.writeHead(SESSION_ENDED.status, { ...JSON_HEADERS, 'X-Request-Id': requestId });
        res.end(errorEnvelope(SESSION_ENDED.code, SESSION_ENDED.message));
        return;
      }
      return sendGateway(res, authorization.denied, requestId);
    }
    // As in AWS, the /v1 API's bucket is the usage plan key the authorizer names, and every /v1
    // method requires one; the dashboard's routes are another API in AWS, without a usage plan.
    if (route.auth === 'apiKey') {
      const usageIdentifierKey = 'usageIdentifierKey' in authorization ? authorization.usageIdentifierKey : undefined;
      if (!usageIdentifierKey) return sendGateway(res, 'INVALID_API_KEY', requestId, undefined);
      const companyTurn = companyBuckets.take(usageIdentifierKey, Date.now());
      if (!companyTurn.allowed) return sendThrottled(res, requestId, companyTurn.retryAfterSeconds);
    }

    const event: APIGatewayProxyEvent = {
      resource: route.spec.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      queryStringParameters: url.searchParams.size ? Object.fromEntries(url.searchParams) : null,
      multiValueQueryStringParameters: url.searchParams.size ? groupQuery(url.searchParams) : null,
      pathParameters,
      stageVariables: null,
      body: body.length ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: API_ID,
        authorizer: { principalId: authorization.principalId, ...authorization.context },
        httpMethod: method,
        identity: { sourceIp } as APIGatewayProxyEvent['requestContext']['identity'],
        path: `/${options.config.stage}${url.pathname}`,
        protocol: 'HTTP/1.1',
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: route.spec.handler,
        resourcePath: route.spec.path,
        stage: options.config.stage,
      },
    };
    // A download's function runs for minutes in AWS (DOWNLOAD_TIMEOUT_SECONDS); the others' answers
    // are bound by API Gateway's 29 s.
    const handler = route.handler;
    const context = lambdaContext(route.spec.handler, requestId, isStreamingHandler(handler) ? DOWNLOAD_TIMEOUT_SECONDS * 1000 : 30_000);
    if (isStreamingHandler(handler)) return streamAnswer(handler, event, context, res, requestId);
    const result = await handler(event, context);
    // API Gateway sends each value of a multi-value header on its own line (Set-Cookie needs it).
    res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), ...(result.multiValueHeaders as Record<string, string[]> | undefined) });
    res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  }

  /** A streaming function's answer (API Gateway's STREAM mode): sent as it is written. A failure
   * before the head is API Gateway's 5xx; after it, the connection is cut, as API Gateway cuts it. */
  async function streamAnswer(handler: StreamingHandler, event: APIGatewayProxyEvent, context: unknown, res: ServerResponse, requestId: string): Promise<void> {
    const stream = new LocalResponseStream(res);
    try {
      await handler(event, stream, context);
    } catch (error) {
      if (!stream.headSent) throw error;
      res.destroy();
    }
  }

  function matchRoute(method: string, path: string) {
    for (const route of routes) {
      if (route.spec.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const values = found.slice(1).map((value) => safeDecode(value));
      if (values.some((value) => value === null)) continue;
      const pathParameters = route.parameterNames.length
        ? Object.fromEntries(route.parameterNames.map((name, i) => [name, values[i] as string]))
        : null;
      return { route, pathParameters };
    }
    return null;
  }

  async function authorize(
    headers: Record<string, string>,
    methodArn: string,
    path: string,
    route: CompiledRoute,
    requestId: string,
    sourceIp: string,
  ): Promise<{ denied?: GatewayResponseType; principalId?: string; context?: Record<string, unknown>; usageIdentifierKey?: string }> {
    const lowerCased = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const authorizer = route.auth === 'session' ? authorizers.session! : authorizers.apiKey;
    const identity = authorizer.identityHeaders.map((name) => lowerCased.get(name.toLowerCase()));
    // API Gateway refuses without calling the authorizer when an identity source is missing or empty.
    if (identity.some((value) => !value)) return { denied: 'UNAUTHORIZED' };
    const cacheKey = createHash('sha256').update(authorizer.name).update('\n').update(identity.join('\n')).digest('hex');
    const cached = authorizerCache.get(cacheKey);
    let result: APIGatewayAuthorizerResult | 'unauthorized';
    if (cached && cached.expiresAt > Date.now()) {
      result = cached.result;
    } else {
      try {
        result = await authorizer.handler(
          {
            type: 'REQUEST',
            methodArn,
            resource: route.spec.path,
            path,
            httpMethod: route.spec.method,
            headers,
            multiValueHeaders: null,
            pathParameters: null,
            queryStringParameters: null,
            multiValueQueryStringParameters: null,
            stageVariables: null,
            requestContext: { requestId, stage: options.config.stage, identity: { sourceIp } } as APIGatewayRequestAuthorizerEvent['requestContext'],
          },
          lambdaContext(authorizer.name, requestId),
        );
      } catch (error) {
        if (error instanceof Error && error.message === 'Unauthorized') {
          result = 'unauthorized';
        } else {
          console.error(JSON.stringify({ level: 'error', message: 'Authorizer failed', requestId, error: String(error) }));
          return { denied: 'AUTHORIZER_FAILURE' };
        }
      }
      authorizerCache.set(cacheKey, { result, expiresAt: Date.now() + options.config.authorizerCacheSeconds * 1000 });
    }
    if (result === 'unauthorized') return { denied: 'UNAUTHORIZED' };
    if (!policyAllows(result, methodArn)) return { denied: 'ACCESS_DENIED' };
    return { principalId: result.principalId, context: result.context ?? {}, usageIdentifierKey: result.usageIdentifierKey ?? undefined };
  }
}

function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument.Statement as { Effect: string; Resource?: string | string[] }[];
  const matches = (statement: { Resource?: string | string[] }) =>
    [statement.Resource ?? []].flat().some((resource) => arnPattern(resource).test(methodArn));
  if (statements.some((s) => s.Effect === 'Deny' && matches(s))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s));
}

const compiledArnPatterns = new Map<string, RegExp>();

function arnPattern(resource: string): RegExp {
  let pattern = compiledArnPatterns.get(resource);
  if (!pattern) {
    pattern = compileArnPattern(resource);
    compiledArnPatterns.set(resource, pattern);
  }
  return pattern;
}

function compileArnPattern(resource: string): RegExp {
  return new RegExp(`^${resource.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

function sendGateway(res: ServerResponse, type: GatewayResponseType, requestId: string, gatewayStatus?: number, extraHeaders: Record<string, string> = {}): void {
  const { status, body, headers } = gatewayResponse(type, gatewayStatus);
  res.writeHead(status, { ...JSON_HEADERS, ...headers, ...extraHeaders, 'X-Request-Id': requestId });
  res.end(body);
}

/** THROTTLED, with the exact wait where API Gateway's static answer says a second. */
function sendThrottled(res: ServerResponse, requestId: string, retryAfterSeconds: number): void {
  sendGateway(res, 'THROTTLED', requestId, undefined, { 'Retry-After': String(retryAfterSeconds) });
}

/** A refusal before the body is read: the connection closes after it, so the unread body is not
 * taken for the next request. */
function refuseUnread(req: IncomingMessage, res: ServerResponse, status: number, requestId: string): void {
  res.shouldKeepAlive = false;
  sendGateway(res, 'DEFAULT_4XX', requestId, status);
  req.resume();
}

/**
 * The gateway's quotas on the request's head: 414 for a URL over the limit, 431 for the request
 * line and header values together over it. API Gateway documents the limits but not the status
 * it answers with; these are HTTP's own statuses for the two cases (RFC 9110 §15.5.15, RFC 6585
 * §5), in its DEFAULT_4XX envelope (docs/api-notes.md).
 */
function requestHeadTooLong(req: IncomingMessage): 414 | 431 | null {
  const url = req.url ?? '/';
  if (Buffer.byteLength(url) > GATEWAY_MAX_URL_BYTES) return 414;
  let size = Buffer.byteLength(`${req.method ?? ''} ${url} HTTP/${req.httpVersion}`);
  for (let i = 1; i < req.rawHeaders.length; i += 2) size += Buffer.byteLength(req.rawHeaders[i]!);
  return size > GATEWAY_MAX_REQUEST_HEAD_BYTES ? 431 : null;
}

function parseUrl(target: string): URL | null {
  try {
    return new URL(target, 'http://localhost');
  } catch {
    return null;
  }
}

const answeredSockets = new WeakSet<Duplex>();
/** A method token (RFC 9110 §5.6.2), a target and a version: a method, not garbage. */
const WELL_FORMED_REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d$/;

/**
 * A request Node's parser refused, answered as API Gateway would, in the envelope: a head past
 * Node's own limit as the gateway's quota (414 when the request line alone fills what was read,
 * else 431); a method no HTTP parser knows as any method without a route (404, the stack's answer
 * for API Gateway's "Missing Authentication Token"); a request that never finished arriving 408;
 * anything else malformed 400. The connection then closes, but what the client still sends is read
 * and dropped for a moment first: closing with unread data is a reset, which may reach the client
 * before it has read the answer.
 */
function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const raw = error.rawPacket ?? Buffer.alloc(0);
  let type: GatewayResponseType = 'DEFAULT_4XX';
  let gatewayStatus = 400;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    gatewayStatus = raw.indexOf('\r\n') === -1 ? 414 : 431;
  } else if (error.code === 'HPE_INVALID_METHOD' && WELL_FORMED_REQUEST_LINE.test(raw.toString('latin1').split('\r\n')[0]!)) {
    type = 'MISSING_AUTHENTICATION_TOKEN';
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'HPE_HEADER_TIMEOUT') {
    gatewayStatus = 408;
  }
  const { status, body } = gatewayResponse(type, gatewayStatus);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `Content-Type: ${JSON_HEADERS['Content-Type']}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
  ];
  socket.on('error', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function singleValueHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i]!] = req.rawHeaders[i + 1]!;
  return headers;
}

function groupQuery(params: URLSearchParams): Record<string, string[]> {
  // Own keys only: a query naming an Object prototype member (`?constructor=1`) is a plain key,
  // for the route's schema to refuse, not the prototype's function to push to (a 500).
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return Object.fromEntries(grouped);
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function lambdaContext(functionName: string, awsRequestId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  return {
    functionName,
    awsRequestId,
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

