import { createHmac } from 'node:crypto';

/**
 * The dashboard's session cookies (../shared/dashboard.md, Security). The session cookie names a
 * session Cambio keeps (functions/people/dashboard-sessions.ts): no identity provider token ever
 * reaches the browser. It is HttpOnly, so no script on the page can read it; all are SameSite=Strict, so no
 * other site's page makes the browser send them; the CSRF token is the one a script must read to
 * send back as X-CSRF-Token, and it is derived from the session (csrfTokenFor), so a token from
 * another session is refused.
 *
 * Secure everywhere but plain http on loopback, where `npm start` serves the dashboard; a secure
 * cookie is named `__Host-<name>` with `Path=/`, which browsers accept only from this very origin
 * (no Domain, Secure), so a sibling subdomain can neither set nor shadow it. Browsers refuse
 * `__Host-` without Secure, so on loopback the names are plain. The names below are the plain ones:
 * `readDashboardCookies` maps what the browser sent back to them.
 */
export const SESSION_COOKIE = 'cambio_session';
export const REFRESH_COOKIE = 'cambio_refresh';
export const CSRF_COOKIE = 'cambio_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** Between the password and the code of a two-factor sign-in: Cognito's challenge session. */
export const TWO_FACTOR_COOKIE = 'cambio_two_factor';
const TWO_FACTOR_MAX_AGE_SECONDS = 180;

/** The API's paths are where the session is sent; the two-factor challenge goes only to /session. */
const API_PATH = '/dashboard/api';
const REFRESH_PATH = '/dashboard/api/session';
/** The CSRF cookie outlives no session (dashboard-sessions.ts SESSION_LIFETIME_SECONDS). */
const CSRF_MAX_AGE_SECONDS = 30 * 86_400;

const HOST_PREFIX = '__Host-';

/** The dashboard's cookies under their plain names: with secure cookies only the `__Host-` ones
 * (a plain `cambio_csrf` then was set by someone else), on loopback only the plain ones. */
export function readDashboardCookies(header: string | undefined, secure: boolean): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseCookies(header))) {
    if (name.startsWith(HOST_PREFIX) === secure) cookies[secure ? name.slice(HOST_PREFIX.length) : name] = value;
  }
  return cookies;
}

/** Secure cookies unless the request came to a loopback host (`npm start`); in AWS the API's host
 * is never loopback. */
export const secureCookiesFor = (host: string | undefined): boolean => !isLoopbackHost(host);

/**
 * The CSRF token of a session: an HMAC keyed by the session's authentication id (Cognito's
 * `origin_jti`, which every token refreshed from that sign-in keeps). That id is only inside the
 * HttpOnly access token, so no other page can compute it, and a token from another session
 * (another person's, or one tossed into the cookie jar) does not match this one.
 */
export const csrfTokenFor = (sessionId: string): string => createHmac('sha256', sessionId).update('cambio dashboard CSRF token').digest('base64url');

/**
 * A request's headers as API Gateway's REST API hands them to a REQUEST authorizer and to a proxy
 * integration alike: `headers` holds one value per name (the last, when a name is repeated) and
 * `multiValueHeaders` every value. Names keep the client's spelling, and API Gateway tells `Cookie`
 * from `cookie` (two keys), as the local gateway does (local/gateway-edge.ts singleValueHeaders).
 */
export interface RequestHeaderShapes {
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, (string | undefined)[] | undefined> | null;
}

/**
 * Every line of the header `name` the request carried, whatever the case of its name, from both
 * shapes: `multiValueHeaders`' values, and any value of `headers` that is not among them (with
 * `multiValueHeaders` missing, as in a hand-built event, `headers`' values). So a repeated line is
 * counted, never dropped, whichever shape carries it.
 */
export function headerLines(request: RequestHeaderShapes, name: string): string[] {
  const wanted = name.toLowerCase();
  const named = <T>(record: Record<string, T> | null | undefined): T[] =>
    Object.entries(record ?? {})
      .filter(([key]) => key.toLowerCase() === wanted)
      .map(([, value]) => value);
  const every = named(request.multiValueHeaders).flatMap((values) => (values ?? []).filter((value): value is string => value !== undefined));
  const single = named(request.headers).filter((value): value is string => value !== undefined);
  return [...every, ...single.filter((value) => !every.includes(value))];
}

/** The header's value as the handlers' request normalisation keeps it (functions/http/route.ts
 * normaliseRequest): of `headers`' names that match whatever their case, the last. */
export function lastHeaderValue(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  let found: string | undefined;
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted && value !== undefined) found = value;
  return found;
}

/** More than one Cookie line, or more than one session cookie: the request names no one session. */
export const AMBIGUOUS_SESSION = Symbol('ambiguous session cookie');

/**
 * The session cookie's value (undefined when there is none), read the one way both the session
 * authorizer and the dashboard's handlers read it: from the request's single Cookie line. A request
 * with more than one Cookie line, or more than one session cookie in it, is AMBIGUOUS_SESSION and
 * is refused on both sides: otherwise one side could verify one session while the other acts on
 * another (the first line against the last, the first cookie against the last). A browser sends one
 * Cookie line (HTTP/2 peers join theirs before an HTTP/1.1 hop, RFC 9113 §8.2.3) and, with the
 * `__Host-` prefix, holds at most one session cookie for the origin.
 */
export function sessionCookieOf(request: RequestHeaderShapes, secure: boolean): string | undefined | typeof AMBIGUOUS_SESSION {
  const lines = headerLines(request, 'cookie');
  if (lines.length > 1) return AMBIGUOUS_SESSION;
  const wanted = secure ? `${HOST_PREFIX}${SESSION_COOKIE}` : SESSION_COOKIE;
  const values = cookieValues(lines[0], wanted);
  return values.length > 1 ? AMBIGUOUS_SESSION : values[0];
}

/** A Cookie header's `name=value` pairs, in order (a part without a name is skipped). */
function cookiePairs(header: string | undefined): [name: string, value: string][] {
  return (header ?? '').split(';').flatMap((part) => {
    const at = part.indexOf('=');
    return at < 1 ? [] : [[part.slice(0, at).trim(), part.slice(at + 1).trim()] as [string, string]];
  });
}

/** Every value the header gives the cookie `name`, in order. */
const cookieValues = (header: string | undefined, name: string): string[] => cookiePairs(header).flatMap(([key, value]) => (key === name ? [value] : []));

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  // The first of two same-named cookies is the most specific path's, as browsers order them.
  for (const [name, value] of cookiePairs(header)) if (!(name in cookies)) cookies[name] = value;
  return cookies;
}

export function isLoopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '');
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

function cookie(name: string, value: string, options: { path: string; maxAge: number; httpOnly: boolean; secure: boolean }): string {
  return [
    // A __Host- cookie must have Path=/; the session's tokens then go to every path of the
    // dashboard's origin, which serves nothing but the app and this API.
    options.secure ? `${HOST_PREFIX}${name}=${value}` : `${name}=${value}`,
    `Path=${options.secure ? '/' : options.path}`,
    `Max-Age=${options.maxAge}`,
    'SameSite=Strict',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The cookie naming an opened session, and the session's CSRF token. */
export function sessionCookies(session: { cookieValue: string; sessionId: string; maxAgeSeconds: number }, secure: boolean): string[] {
  return [
    cookie(SESSION_COOKIE, session.cookieValue, { path: API_PATH, maxAge: session.maxAgeSeconds, httpOnly: true, secure }),
    cookie(CSRF_COOKIE, csrfTokenFor(session.sessionId), { path: '/dashboard', maxAge: Math.min(session.maxAgeSeconds, CSRF_MAX_AGE_SECONDS), httpOnly: false, secure }),
  ];
}

/** The CSRF cookie again, for a session the browser still holds. */
export function csrfCookie(sessionId: string, secure: boolean): string {
  return cookie(CSRF_COOKIE, csrfTokenFor(sessionId), { path: '/dashboard', maxAge: CSRF_MAX_AGE_SECONDS, httpOnly: false, secure });
}

/** Every dashboard cookie gone; the refresh cookie too, which browsers signed in before sessions
 * were Cambio's own may still hold. */
export function clearedCookies(secure: boolean): string[] {
  return [
    cookie(SESSION_COOKIE, '', { path: API_PATH, maxAge: 0, httpOnly: true, secure }),
    cookie(REFRESH_COOKIE, '', { path: REFRESH_PATH, maxAge: 0, httpOnly: true, secure }),
    cookie(CSRF_COOKIE, '', { path: '/dashboard', maxAge: 0, httpOnly: false, secure }),
  ];
}

/** The pending two-factor sign-in (the email and Cognito's 3-minute challenge session), HttpOnly,
 * sent only to /session, so the page holds nothing of it while it asks for the code. */
export function twoFactorCookie(challenge: { email: string; session: string }, secure: boolean): string {
  const value = Buffer.from(JSON.stringify({ email: challenge.email, session: challenge.session })).toString('base64url');
  return cookie(TWO_FACTOR_COOKIE, value, { path: REFRESH_PATH, maxAge: TWO_FACTOR_MAX_AGE_SECONDS, httpOnly: true, secure });
}

export function clearedTwoFactorCookie(secure: boolean): string {
  return cookie(TWO_FACTOR_COOKIE, '', { path: REFRESH_PATH, maxAge: 0, httpOnly: true, secure });
}

/**
 * The pending two-factor sign-in, or null when there is none or the cookie is not ours. The cookie
 * is the browser's to change: its `email` names who the wrong codes are counted against
 * (code-attempts.ts) and is the USERNAME Cognito is answered as. Cognito also takes a person's
 * username, their `sub`, which a co-member sees on Team; counted under it, one person's codes
 * would have a second allowance. So only an address is taken: a `sub` has no `@`.
 */
export function readTwoFactorCookie(cookies: Record<string, string>): { email: string; session: string } | null {
  const raw = cookies[TWO_FACTOR_COOKIE];
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { email?: unknown }).email === 'string' && typeof (parsed as { session?: unknown }).session === 'string') {
      const { email, session } = parsed as { email: string; session: string };
      return email.includes('@') ? { email, session } : null;
    }
  } catch {
    // Not JSON: someone else's cookie value.
  }
  return null;
}
