import type { APIGatewayProxyEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AMBIGUOUS_SESSION, headerLines, sessionCookieOf } from '#http/cookies';
import { sessionKeyOf } from '#functions/people/dashboard-sessions';
import { proxyEvent } from '../support/proxy-event.ts';

/**
 * One session per request (functions/http/cookies.ts sessionCookieOf, functions/http/dashboard-route.ts):
 * the session authorizer and the dashboard's handlers read the session cookie the same way from
 * either shape API Gateway's REST API gives (`headers`, one value per name and the last of a
 * repeated one; `multiValueHeaders`, every value; names as the client spelled them), refuse a
 * request that names two, and a route acts only on the session the authorizer verified.
 */
describe('the session cookie of a request', () => {
  it('is the one session cookie of the one Cookie line, whichever shape carries it', () => {
    expect(sessionCookieOf({ headers: { Cookie: 'cambio_csrf=t; cambio_session=a' } }, false)).toBe('a');
    expect(sessionCookieOf({ headers: { cookie: 'cambio_session=a' }, multiValueHeaders: { cookie: ['cambio_session=a'] } }, false)).toBe('a');
    expect(sessionCookieOf({ headers: { Host: 'x' } }, false)).toBeUndefined();
    expect(sessionCookieOf({ headers: null, multiValueHeaders: null }, true)).toBeUndefined();
    // With secure cookies only the __Host- one is the session: a plain one beside it is someone else's and ignored.
    expect(sessionCookieOf({ headers: { Cookie: '__Host-cambio_session=a; cambio_session=b' } }, true)).toBe('a');
  });

  it.each([
    ['two lines whose names differ in case (headers)', { headers: { Cookie: 'cambio_session=a', cookie: 'cambio_session=b' } }],
    ['two lines whose names differ in case (both shapes)', { headers: { Cookie: 'cambio_session=a', cookie: 'cambio_session=b' }, multiValueHeaders: { Cookie: ['cambio_session=a'], cookie: ['cambio_session=b'] } }],
    ['the same name twice (headers keeps the last, multiValueHeaders both)', { headers: { Cookie: 'cambio_session=b' }, multiValueHeaders: { Cookie: ['cambio_session=a', 'cambio_session=b'] } }],
    ['two lines, the second without a session cookie', { headers: { Cookie: 'cambio_csrf=t' }, multiValueHeaders: { Cookie: ['cambio_session=a', 'cambio_csrf=t'] } }],
    ['two session cookies in one line', { headers: { Cookie: 'cambio_session=a; cambio_csrf=t; cambio_session=b' } }],
  ])('is ambiguous with %s, and refused', (_, request) => {
    expect(sessionCookieOf(request, false)).toBe(AMBIGUOUS_SESSION);
  });

  it('is ambiguous with two __Host- session cookies where cookies are secure', () => {
    expect(sessionCookieOf({ headers: { Cookie: '__Host-cambio_session=a; __Host-cambio_session=b' } }, true)).toBe(AMBIGUOUS_SESSION);
  });

  it('counts every line of a header once, whatever the case of its name', () => {
    expect(headerLines({ headers: { Cookie: 'b', cookie: 'c' }, multiValueHeaders: { Cookie: ['a', 'b'], cookie: ['c'] } }, 'cookie')).toEqual(['a', 'b', 'c']);
    expect(headerLines({ headers: { COOKIE: 'x' } }, 'Cookie')).toEqual(['x']);
  });
});

describe('a dashboard route', () => {
  type Route = (event: APIGatewayProxyEvent, context: unknown) => Promise<{ statusCode: number; body: string }>;
  const acted: (string | null)[] = [];
  let route: Route;
  let publicRoute: Route;

  beforeAll(async () => {
    vi.stubEnv('DASHBOARD_ORIGIN', 'https://dashboard.example');
    // Loaded once the environment holds what the wrapper reads at cold start.
    const { dashboardRoute } = await import('#http/dashboard-route');
    route = dashboardRoute({ access: 'session' }, async ({ sessionCookie }) => {
      acted.push(sessionCookie);
      return { data: { ok: true } };
    }) as unknown as Route;
    publicRoute = dashboardRoute({ access: 'public' }, async ({ sessionCookie }) => {
      acted.push(sessionCookie);
      return { data: { ok: true } };
    }) as unknown as Route;
  });

  const event = (shapes: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, authorizer: Record<string, unknown> | null): APIGatewayProxyEvent =>
    proxyEvent({ path: '/me/two-factor', ...shapes, authorizer });
  const verified = (cookieValue: string) => ({ principalId: 'person-a', personId: 'person-a', authTime: Math.floor(Date.now() / 1000), sessionId: 'jti-a', sessionKey: sessionKeyOf(cookieValue) });
  const single = (cookie: string) => ({ headers: { Host: 'dashboard.example', Cookie: cookie }, multiValueHeaders: { Host: ['dashboard.example'], Cookie: [cookie] } });

  it('acts on the session the authorizer verified', async () => {
    acted.length = 0;
    const answer = await route(event(single('__Host-cambio_session=a'), verified('a')), {});

    expect(answer.statusCode).toBe(200);
    expect(acted).toEqual(['a']);
  });

  it.each([
    ['another session', single('__Host-cambio_session=b')],
    ['no session cookie', single('__Host-cambio_csrf=t')],
    ['a plain session cookie where cookies are secure', single('cambio_session=a')],
  ])('refuses (401, nothing run) a request whose cookie names %s than the authorizer verified', async (_, shapes) => {
    acted.length = 0;
    const answer = await route(event(shapes, verified('a')), {});

    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('AUTH_FAILED');
    expect(acted).toEqual([]);
  });

  it.each([
    ['the verified one first', ['__Host-cambio_session=a', '__Host-cambio_session=b'], '__Host-cambio_session=b'],
    ['the verified one last', ['__Host-cambio_session=b', '__Host-cambio_session=a'], '__Host-cambio_session=a'],
  ])('refuses (401, nothing run) two Cookie lines, %s, in multiValueHeaders beside the last in headers', async (_, lines, last) => {
    acted.length = 0;
    const answer = await route(event({ headers: { Host: 'dashboard.example', Cookie: last }, multiValueHeaders: { Host: ['dashboard.example'], Cookie: lines } }, verified('a')), {});

    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('AUTH_FAILED');
    expect(acted).toEqual([]);
  });

  it('refuses two Cookie lines on a public route too (sign-out, the session refresh read the cookie themselves)', async () => {
    acted.length = 0;
    const answer = await publicRoute(event({ headers: { Host: 'dashboard.example', Cookie: '__Host-cambio_session=a', cookie: '__Host-cambio_session=b' }, multiValueHeaders: {} }, null), {});

    expect(answer.statusCode).toBe(401);
    expect(acted).toEqual([]);
  });

  it('fails closed (500) when deployed without the session authorizer, or with one that names no session', async () => {
    acted.length = 0;
    const { sessionKey: _, ...withoutKey } = verified('a');

    expect((await route(event(single('__Host-cambio_session=a'), withoutKey), {})).statusCode).toBe(500);
    expect((await route(event(single('__Host-cambio_session=a'), null), {})).statusCode).toBe(500);
    expect(acted).toEqual([]);
  });
});
