import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { AUTHORIZER, DASHBOARD_API, DASHBOARD_DOWNLOADS, DASHBOARD_ROUTES, DASHBOARD_SIMULATOR, DOWNLOAD_TIMEOUT_SECONDS, ROUTES, SESSION_AUTHORIZER, type DashboardRouteSpec, type RouteSpec } from '#functions/routes';
import { SESSION_ENDED, type GatewayResponseType } from '#http/gateway-responses';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';
import { FIRST_TIER, TokenBuckets } from '#functions/api-keys/rate-limits';
import { usagePlanTiers, type CompanyLimits } from './usage-plan-tiers.ts';
import type { StageConfig } from '../config/stages.ts';
import { isDocsRequest, serveDocs } from './docs-route.ts';
import { isDashboardAppRequest, serveDashboardApp } from './dashboard-app.ts';
import {
  answerClientError,
  groupQuery,
  NODE_MAX_HEADER_BYTES,
  parseUrl,
  readBody,
  refuseUnread,
  requestHeadTooLong,
  safeDecode,
  sendGateway,
  sendThrottled,
  singleValueHeaders,
  asCloudFrontForwards,
} from './gateway-edge.ts';
import { policyAllows } from './gateway-policy.ts';
import { installLambdaStreaming, isStreamingHandler, LocalResponseStream, type StreamingHandler } from './lambda-response-stream.ts';

/**
 * The local stand-in for API Gateway's REST API: it matches the route table, runs the same REQUEST
 * authorizer (with a per key-and-secret cache, as API Gateway does), turns each request into the
 * same proxy event a Lambda receives, and answers with the same gateway responses.
 */
type ProxyHandler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: unknown) => Promise<APIGatewayAuthorizerResult>;

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
  /** The dashboard's API; defaults to DASHBOARD_ROUTES with the simulator and the downloads, or to
   * none when `routes` is given (a test serving a few /v1 routes needs no user pool). */
  dashboardRoutes?: readonly (RouteSpec & { auth: 'public' | 'session' })[];
  /** The built dashboard app's folder, served at /dashboard/; null serves none. */
  dashboardAppDir?: string | null;
  /** Loads a handler module by its route-table name; defaults to importing functions/<name>.ts. */
  loadHandler?: (name: string) => Promise<unknown>;
  /** Each company's own limit: its tier's figures, and how to learn a company's tier. By default the
   * stage's tiers (`config.capacity`), every company at the first. */
  companyLimits?: CompanyLimits;
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
    ...(options.dashboardRoutes ?? (options.routes ? [] : [...DASHBOARD_ROUTES, DASHBOARD_SIMULATOR, ...DASHBOARD_DOWNLOADS])).map((spec) => ({ spec, auth: spec.auth })),
  ];
  for (const { spec, auth } of specs) {
    const parameterNames: string[] = [];
    const source = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      parameterNames.push(name);
      return '([^/]+)';
    });
    // The dashboard's routes go through its one Lambda's dispatcher, as in AWS (functions/handlers/dashboard/api.ts);
    // the simulator and the downloads run their own modules, as their own functions do there.
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
  // API Gateway's two throttles, in its documented order: a usage plan's per-client limit first,
  // then the stage's, which it keeps per method: the stage's figures (MethodSettings `/*` `*`) give
  // each method a bucket of its own, and there is none for the stage as a whole. A request the /v1
  // authorizer names a company's key for meets its company's bucket (functions/api-keys/rate-limits.ts)
  // and takes from its method's only once its company's let it through, so one company's refused
  // burst never spends a method's capacity that every company shares; any other request to a method
  // (no credentials, the dashboard's) meets its method's bucket at once. A request that matches no
  // method meets no method's bucket: in AWS only the account's rate (every API in the region
  // together), which this gateway does not keep, is in front of it.
  const methodBuckets = new TokenBuckets(options.config.throttle);
  const takeFromMethod = (route: CompiledRoute) => methodBuckets.take(`${route.spec.method} ${route.spec.path}`, Date.now());
  const companyLimits = options.companyLimits ?? { tiers: options.config.capacity.tiers, tierOf: async () => FIRST_TIER };
  const companyBuckets = new TokenBuckets(companyLimits.tiers[FIRST_TIER]);
  const tierOfKey = usagePlanTiers(companyLimits);

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
    const match = matchRoute(method, url.pathname);
    if (!match) return sendGateway(res, 'MISSING_AUTHENTICATION_TOKEN', requestId);
    const headers = url.pathname.startsWith('/dashboard/api/') ? asCloudFrontForwards(singleValueHeaders(req), req) : singleValueHeaders(req);
    const keyed = match.route.auth === 'apiKey' && carriesIdentity(headers, AUTHORIZER.identityHeaders);
    if (!keyed) {
      const methodTurn = takeFromMethod(match.route);
      if (!methodTurn.allowed) return sendThrottled(res, requestId, methodTurn.retryAfterSeconds);
    }
    const { route, pathParameters } = match;

    const methodArn = `arn:aws:execute-api:local:000000000000:${API_ID}/${options.config.stage}/${method}${url.pathname}`;
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const authorization = route.auth === 'public' ? { principalId: undefined, context: {} } : await authorize(headers, methodArn, url.pathname, route, requestId, sourceIp);
    if ('denied' in authorization && authorization.denied) {
      // Refused credentials name no company: their method's bucket is theirs to spend, as any unkeyed request's.
      if (keyed) {
        const methodTurn = takeFromMethod(route);
        if (!methodTurn.allowed) return sendThrottled(res, requestId, methodTurn.retryAfterSeconds);
      }
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
      const limit = companyLimits.tiers[await tierOfKey(usageIdentifierKey)];
      const companyTurn = companyBuckets.take(usageIdentifierKey, Date.now(), limit);
      if (!companyTurn.allowed) return sendThrottled(res, requestId, companyTurn.retryAfterSeconds);
      const methodTurn = takeFromMethod(route);
      if (!methodTurn.allowed) return sendThrottled(res, requestId, methodTurn.retryAfterSeconds);
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
      const cacheSeconds = 'cacheSeconds' in authorizer ? authorizer.cacheSeconds : options.config.authorizerCacheSeconds;
      if (cacheSeconds > 0) authorizerCache.set(cacheKey, { result, expiresAt: Date.now() + cacheSeconds * 1000 });
    }
    if (result === 'unauthorized') return { denied: 'UNAUTHORIZED' };
    if (!policyAllows(result, methodArn)) return { denied: 'ACCESS_DENIED' };
    return { principalId: result.principalId, context: result.context ?? {}, usageIdentifierKey: result.usageIdentifierKey ?? undefined };
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

/** Whether every identity header the authorizer reads is present and non-empty: without them API
 * Gateway answers 401 without calling it, and no usage plan key is named. */
function carriesIdentity(headers: Record<string, string>, identityHeaders: readonly string[]): boolean {
  const present = new Set(Object.entries(headers).filter(([, value]) => value !== '').map(([name]) => name.toLowerCase()));
  return identityHeaders.every((name) => present.has(name.toLowerCase()));
}
