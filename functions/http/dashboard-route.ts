import { timingSafeEqual } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as v from 'valibot';
import type { RequestOrigin } from '#functions/companies/audit-log';
import type { Caller } from '#functions/people/caller';
import { ApiError, notFound } from '#functions/shared/errors';
import type { Log } from '#functions/shared/log';
import { requireRecentSignIn } from '#functions/people/step-up';
import { requireStanding, type MemberStanding, type Permission } from '#functions/people/team';
import { requestLog } from './access-log.ts';
import { sessionKeyOf } from '#functions/people/dashboard-sessions';
import { AMBIGUOUS_SESSION, CSRF_HEADER, csrfTokenFor, lastHeaderValue, readDashboardCookies, secureCookiesFor, SESSION_COOKIE, sessionCookieOf } from './cookies.ts';
import { JSON_HEADERS, successEnvelope } from './envelope.ts';
import { envelopeErrors, normaliseRequest, requireJsonObject, toErrorResponse, withRequestLog } from './route.ts';
import { validate } from './validation.ts';
import { viewerAddress } from './viewer-address.ts';
import { parseSettings } from '#functions/settings/schema';
import { processEnvironment } from '#functions/settings/environment';
import { SLICES } from '#functions/settings/functions';
import { DASHBOARD_ROUTES } from '#functions/routes';

/**
 * Who may call a dashboard route: anyone (sign-up, sign-in, the session's own routes, which check
 * their cookies themselves), any signed-in person (`session`), or a member of the path's
 * `{companyId}` whose role grants the permission. The session authorizer (functions/handlers/auth/
 * session-authorizer.ts) has verified the person's token before a non-public route runs.
 */
export type Access = 'public' | 'session' | Permission;

export interface DashboardRequest<TBody, TAccess extends Access> {
  personId: TAccess extends 'public' ? null : string;
  /** The caller's membership of the path's company, its role already checked. */
  caller: TAccess extends Permission ? Caller : null;
  body: TBody;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
  cookies: Record<string, string>;
  /** The session cookie of the session the session authorizer verified (the request's only one):
   * what a route that acts as the person at the user pool takes the person's token from. */
  sessionCookie: TAccess extends 'public' ? null : string;
  origin: RequestOrigin;
  /** Where the page is served (`https://…`, no path): DASHBOARD_ORIGIN, never a request header,
   * so a mailed link cannot be pointed elsewhere. */
  dashboardOrigin: string;
  /** Secure cookies everywhere but plain http on loopback. */
  secureCookies: boolean;
  requestId: string;
  /** Lines under the request's id, for what a route reports without failing (functions/shared/log.ts). */
  log: Log;
  /** For a route that needs a recent sign-in only for some changes (a webhook's new URL): throws
   * 403 SIGN_IN_AGAIN as a route marked `recentSignIn: 'always'` in functions/routes.ts does for every call. */
  requireRecentSignIn: () => void;
}

export interface DashboardResult {
  status?: number;
  data: unknown;
  pagination?: { nextCursor: string | null };
  cookies?: string[];
}

export interface MembershipLookup {
  standingOf(companyId: string, personId: string): Promise<MemberStanding>;
}

type Handler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The /v1 wrapper's plumbing (body limit, JSON, valibot, the envelope, one error mapping, one log
 * line), plus what a browser-facing API needs: cross-site request forgery refused before anything
 * runs, the caller's membership and role checked, cookies set, and nothing cached.
 */
export function dashboardRoute<TSchema extends v.GenericSchema | undefined = undefined, TAccess extends Access = 'public'>(
  options: {
    body?: TSchema;
    access: TAccess;
    memberships?: MembershipLookup;
  },
  fn: (request: DashboardRequest<TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined, TAccess>) => Promise<DashboardResult>,
): Handler {
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(envelopeErrors()).use(oneSessionCookie()).use(normaliseRequest(options.body !== undefined));
  if (options.body) stack.use(httpJsonBodyParser());
  const handler = stack.handler(async (event) => {
    const requestId = event.requestContext.requestId;
    const headers = event.headers as Record<string, string>;
    const secureCookies = secureCookiesFor(headers.host);
    const cookies = readDashboardCookies(headers.cookie, secureCookies);
    const sessionCookie = options.access === 'public' ? null : verifiedSessionCookie(event, cookies);
    if (STATE_CHANGING.has(event.httpMethod)) refuseCrossSite(headers, options.access === 'public' ? null : sessionOf(event));
    const personId = options.access === 'public' ? null : sessionPerson(event);
    const origin = requestOrigin(event);
    const caller = options.access !== 'public' && options.access !== 'session' ? await callerOf(event, options.access, options.memberships) : null;
    const recentSignIn = () => requireRecentSignIn(Number(event.requestContext.authorizer?.authTime ?? 0), recentSignInSeconds);
    if (ALWAYS_RECENT_SIGN_IN.has(`${event.httpMethod} ${event.resource}`)) recentSignIn();
    const body = options.body ? validate(options.body, requireJsonObject(event.body)) : undefined;
    let result: DashboardResult;
    try {
      result = await fn({
        personId: personId as never,
        caller: caller as never,
        body: body as never,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        cookies,
        sessionCookie: sessionCookie as never,
        origin,
        dashboardOrigin: dashboardOrigin(),
        secureCookies,
        requestId,
        log: requestLog(requestId),
        requireRecentSignIn: recentSignIn,
      });
    } catch (error) {
      const { statusCode, body: errorBody } = toErrorResponse(error, event);
      return { statusCode, headers: { ...JSON_HEADERS, ...NO_STORE, 'X-Request-Id': requestId }, body: errorBody };
    }
    return {
      statusCode: result.status ?? 200,
      headers: { ...JSON_HEADERS, ...NO_STORE, 'X-Request-Id': requestId },
      // API Gateway (and the local server) send each value of a multi-value header as its own line:
      // one Set-Cookie per cookie, as browsers require.
      ...(result.cookies?.length ? { multiValueHeaders: { 'Set-Cookie': result.cookies } } : {}),
      body: successEnvelope(result.data, result.pagination),
    };
  }) as unknown as Handler;
  return withRequestLog(handler, (event) => event.pathParameters?.companyId ?? null);
}

/** The routes whose every call needs a recent sign-in, by the method and resource API Gateway
 * matched (as functions/handlers/dashboard/api.ts picks a route's module): the route table says which. */
const ALWAYS_RECENT_SIGN_IN = new Set(DASHBOARD_ROUTES.filter((route) => route.recentSignIn === 'always').map((route) => `${route.method} ${route.path}`));

export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/**
 * Cross-site request forgery (../shared/dashboard.md, Security). SameSite=Strict already keeps the
 * cookies off other sites' requests; on top of it, a state-changing request must come from the
 * dashboard's own origin when the browser says where it comes from (Origin, Sec-Fetch-Site: the
 * whole origin, scheme, host and port, exactly), and, once signed in, must send in X-CSRF-Token
 * the token of this very session (cookies.ts csrfTokenFor), which the page's script reads from its
 * cookie and no other page can know.
 */
function refuseCrossSite(headers: Record<string, string>, sessionId: string | null): void {
  const forged = () => new ApiError('FORBIDDEN', 'Cross-site request refused');
  const origin = headers.origin;
  if (origin !== undefined && origin !== dashboardOrigin()) throw forged();
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') throw forged();
  if (sessionId === null) return;
  const expected = csrfTokenFor(sessionId);
  // Compared as bytes, lengths too: a header of as many characters with one beyond ASCII is longer
  // in bytes, and timingSafeEqual would throw (a 500) rather than refuse it.
  const expectedBytes = Buffer.from(expected);
  const presentedBytes = Buffer.from(headers[CSRF_HEADER] ?? '');
  if (expectedBytes.length !== presentedBytes.length || !timingSafeEqual(expectedBytes, presentedBytes)) throw forged();
}

/** DASHBOARD_ORIGIN: in AWS the dashboard's custom domain, or else its CloudFront URL, which fronts
 * both the app and this API; locally the runtime's own address (local/runtime.ts). Every dashboard
 * function's slice has it (functions/settings/functions.ts); read at cold start. */
const { DASHBOARD_ORIGIN: configuredOrigin, DASHBOARD_RECENT_SIGN_IN_SECONDS: recentSignInSeconds } = parseSettings(SLICES.dashboardRoute, processEnvironment);

function dashboardOrigin(): string {
  // Never the Host header instead: a request could then point mailed links at any site.
  if (!configuredOrigin) throw new Error('DASHBOARD_ORIGIN is not set');
  return new URL(configuredOrigin).origin;
}

const requestOrigin = (event: APIGatewayProxyEvent): RequestOrigin => ({
  sourceIp: viewerAddress(event.headers, event.requestContext.identity?.sourceIp),
  userAgent: (event.headers as Record<string, string>)['user-agent'] ?? null,
});

/** Longer than any id or address a dashboard path names (a Solana address is 44 characters). */
const MAX_PATH_PARAMETER = 128;

/**
 * The signed-in person's membership of the path's `{companyId}`, refused (403) unless the role grants
 * `permission`. A path value longer than any id is 404 before anything is read: DynamoDB refuses a
 * key over 2,048 bytes (1,024 for a sort key) with an error that would otherwise be a 500.
 */
export async function callerOf(event: APIGatewayProxyEvent, permission: Permission, memberships: MembershipLookup | undefined): Promise<Caller> {
  const companyId = event.pathParameters?.companyId;
  if (!companyId || !memberships) throw new Error('A permission route needs {companyId} and a membership lookup');
  if (Object.values(event.pathParameters ?? {}).some((value) => (value?.length ?? 0) > MAX_PATH_PARAMETER)) throw notFound();
  return { membership: requireStanding(await memberships.standingOf(companyId, sessionPerson(event)), permission), origin: requestOrigin(event) };
}

/**
 * A request with more than one Cookie line, or more than one session cookie, is refused (401)
 * before anything runs, on every route: which session it names would depend on which line or
 * cookie is read, and the session authorizer refuses it too (functions/http/cookies.ts
 * sessionCookieOf, the same reading on both sides). Before normaliseRequest, which keeps one value
 * per lower-cased name and would hide the second line.
 */
function oneSessionCookie(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: ({ event }) => {
      if (sessionCookieOf(event, secureCookiesFor(lastHeaderValue(event.headers, 'host'))) === AMBIGUOUS_SESSION) {
        throw new ApiError('AUTH_FAILED', 'The request carries more than one Cookie header or session cookie: sign in again');
      }
    },
  };
}

/**
 * The session cookie, once it is known to name the session the session authorizer verified (its
 * `sessionKey`). A route acts on that session alone: a request whose cookie names another (or none)
 * is refused (401), nothing written, so no session can be verified for one person while the
 * route acts at the user pool with another's token.
 */
function verifiedSessionCookie(event: APIGatewayProxyEvent, cookies: Record<string, string>): string {
  const verified = event.requestContext.authorizer?.sessionKey;
  // Only reachable if a route is deployed without the session authorizer: fail closed, as a 500.
  if (typeof verified !== 'string' || verified === '') throw new Error('Dashboard route invoked without a session authorizer context');
  const cookieValue = cookies[SESSION_COOKIE];
  const presented = Buffer.from(cookieValue ? sessionKeyOf(cookieValue) : '');
  if (presented.length !== Buffer.byteLength(verified) || !timingSafeEqual(presented, Buffer.from(verified))) {
    throw new ApiError('AUTH_FAILED', 'The session cookie is not the session that was verified: sign in again');
  }
  return cookieValue!;
}

/** The signed-in session's sign-in id (origin_jti) as the session authorizer found it. */
function sessionOf(event: APIGatewayProxyEvent): string {
  const sessionId = event.requestContext.authorizer?.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') throw new Error('Dashboard route invoked without a session authorizer context');
  return sessionId;
}

function sessionPerson(event: APIGatewayProxyEvent): string {
  const personId = event.requestContext.authorizer?.personId;
  // Only reachable if a route is deployed without the session authorizer: fail closed, as a 500.
  if (typeof personId !== 'string' || personId === '') throw new Error('Dashboard route invoked without a session authorizer context');
  return personId;
}
