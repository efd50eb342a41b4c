import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../shared/errors.ts';
import type { SessionTokens } from './identity.ts';
import { endedBySignOut, LONGEST_SESSION_SECONDS, type SignOuts } from './sign-outs.ts';

/**
 * The dashboard's sessions are Cambio's own: the browser's session cookie is a random value that
 * names a stored session, and Cognito's tokens stay on the server (../shared/dashboard.md,
 * Security). A Cognito access token carries the `aws.cognito.signin.user.admin` scope, with which
 * its holder can call the user pool's self-service operations directly (AssociateSoftwareToken,
 * SetUserMFAPreference, ChangePassword…); a person holding their own could replace or turn off
 * their second factor with no password, no code, no audit entry, escaping a company's two-factor
 * rule. The cookie's value is worth nothing to the user pool.
 *
 * The stored session is found by the SHA-256 of the cookie's value, so a read of the table gives
 * no one a live cookie. It lives as long as Cognito's refresh token would (SESSION_LIFETIME_SECONDS);
 * the access token it holds is renewed from the refresh token when a route needs it and it has
 * expired (identityTokenOf). A sign-out ends every session opened before it (sign-outs.ts).
 */
export interface DashboardSession {
  personId: string;
  /** The sign-in it descends from (Cognito's `origin_jti`): the CSRF token is derived from it. */
  sessionId: string;
  /** When the person last gave their password, epoch seconds: the step-up clock (step-up.ts). */
  authTime: number;
  /** When it was opened, epoch seconds: a sign-out ends the sessions opened before it. */
  openedAt: number;
  /** When it ends whatever happens, epoch seconds. */
  expiresAt: number;
  /** Cognito's tokens, never sent to the browser. */
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string | null;
}

export interface DashboardSessionStore {
  save(key: string, session: DashboardSession): Promise<void>;
  /** A renewed access token on a session that still exists: one ended meanwhile (a sign-out deleted
   * it) is not written back with its tokens. */
  renewAccess(key: string, accessToken: string, accessExpiresAt: number): Promise<void>;
  find(key: string): Promise<DashboardSession | null>;
  remove(key: string): Promise<void>;
}

/** Cognito's refresh-token validity as the user pool sets it (lib/dashboard.ts): a session cannot
 * outlive its refresh token, and a sign-out is kept as long (sign-outs.ts). */
export const SESSION_LIFETIME_SECONDS = LONGEST_SESSION_SECONDS;
/** An access token this close to its expiry is renewed before it is used. */
const RENEW_MARGIN_SECONDS = 60;

/** The stored session's key: the SHA-256 of the cookie's value, hex. */
export function sessionKeyOf(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('hex');
}

/** A new session for tokens a sign-in just gave: the password was given now. */
export async function openSession(store: DashboardSessionStore, tokens: SessionTokens, now = new Date()): Promise<{ cookieValue: string; sessionId: string; maxAgeSeconds: number }> {
  const cookieValue = randomBytes(32).toString('base64url');
  const seconds = Math.floor(now.getTime() / 1000);
  if (!tokens.refreshToken) throw new Error('A sign-in gave no refresh token');
  await store.save(sessionKeyOf(cookieValue), {
    personId: tokens.personId,
    sessionId: tokens.sessionId,
    authTime: seconds,
    openedAt: seconds,
    expiresAt: seconds + SESSION_LIFETIME_SECONDS,
    accessToken: tokens.accessToken,
    accessExpiresAt: seconds + tokens.expiresInSeconds,
    refreshToken: tokens.refreshToken,
  });
  return { cookieValue, sessionId: tokens.sessionId, maxAgeSeconds: SESSION_LIFETIME_SECONDS };
}

/** The session the cookie names, or null when there is none (never opened, ended, or expired). */
export async function sessionOf(store: DashboardSessionStore, cookieValue: string | undefined, now = new Date()): Promise<DashboardSession | null> {
  if (!cookieValue) return null;
  const session = await store.find(sessionKeyOf(cookieValue));
  return session && session.expiresAt > now.getTime() / 1000 ? session : null;
}

/** The cookie's session unless a sign-out (or a password changed or reset) has ended it since it was opened. */
export async function liveSessionOf(
  deps: { sessions: DashboardSessionStore; signOuts: Pick<SignOuts, 'lastOf'> },
  cookieValue: string | undefined,
  now = new Date(),
): Promise<DashboardSession | null> {
  const session = await sessionOf(deps.sessions, cookieValue, now);
  if (!session) return null;
  const signOut = await deps.signOuts.lastOf(session.personId);
  return endedBySignOut({ personId: session.personId, issuedAt: session.openedAt, originJti: session.sessionId }, signOut) ? null : session;
}

/**
 * The Cognito access token of the cookie's session, for the routes that act at the user pool as the
 * person (two-factor, password, sign-out); renewed from the session's refresh token when it has
 * expired. AUTH_FAILED when the session is gone or Cognito no longer renews it (signed out).
 * `session`: the cookie's session when the caller has just read it (sign-out), not read again.
 */
export async function identityTokenOf(
  store: DashboardSessionStore,
  refresh: (refreshToken: string) => Promise<SessionTokens>,
  cookieValue: string | undefined,
  { now = new Date(), session: known }: { now?: Date; session?: DashboardSession } = {},
): Promise<string> {
  const session = known ?? (await sessionOf(store, cookieValue, now));
  if (!session) throw new ApiError('AUTH_FAILED', 'No session: sign in');
  const seconds = Math.floor(now.getTime() / 1000);
  if (session.accessExpiresAt - RENEW_MARGIN_SECONDS > seconds) return session.accessToken;
  if (!session.refreshToken) throw new ApiError('AUTH_FAILED', 'No session: sign in');
  const renewed = await refresh(session.refreshToken);
  await store.renewAccess(sessionKeyOf(cookieValue!), renewed.accessToken, seconds + renewed.expiresInSeconds);
  return renewed.accessToken;
}

/** Ends the cookie's session (its stored tokens go with it). */
export async function closeSession(store: DashboardSessionStore, cookieValue: string | undefined): Promise<void> {
  if (cookieValue) await store.remove(sessionKeyOf(cookieValue));
}
