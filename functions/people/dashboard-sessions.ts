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
 * no one a live cookie. Its Cognito tokens are sealed (encrypted) together, bound to that key
 * (SessionTokenSealer): the table, its point-in-time backups and its daily export hold only
 * ciphertext, which a reader cannot open without a right on the sealing key that only the dashboard
 * API has, and a sealed value copied onto another session's item does not open there. A refresh
 * token lives 30 days, and with the app client's id it would let its holder call the user pool's
 * self-service operations above directly. They are opened only by the routes that act at the user
 * pool as the person (identityTokenOf): the session authorizer, on every request, reads the
 * session's other fields and never opens them.
 *
 * It lives as long as Cognito's refresh token would (SESSION_LIFETIME_SECONDS); the access token it
 * holds is renewed from the refresh token when a route needs it and it has expired
 * (identityTokenOf). A sign-out ends every session opened before it (sign-outs.ts).
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
  /** Cognito's access and refresh tokens (StoredTokens), sealed for this session: never in the
   * clear at rest, never sent to the browser. */
  sealedTokens: string;
  /** When the sealed access token expires, epoch seconds: it is renewed before, without opening it to know. */
  accessExpiresAt: number;
}

/** What `sealedTokens` holds once opened. */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
}

/** What sealed tokens are bound to: their purpose, and the session's key (the cookie's hash). */
export interface SessionSealingContext {
  purpose: 'dashboard-session';
  sessionKey: string;
}

/** The port: the stage's sealer for secrets at rest (AWS KMS deployed, AES-256-GCM locally;
 * functions/adapters/dashboard-session-sealer.ts), under the sessions' own purpose. */
export interface SessionTokenSealer {
  seal(plain: string, context: SessionSealingContext): Promise<string>;
  /** Throws when the value was not sealed for this session (or by this sealer). */
  open(sealed: string, context: SessionSealingContext): Promise<string>;
}

export const sealingContextOf = (sessionKey: string): SessionSealingContext => ({ purpose: 'dashboard-session', sessionKey });

export interface DashboardSessionStore {
  save(key: string, session: DashboardSession): Promise<void>;
  /** Renewed tokens on a session that still exists: one ended meanwhile (a sign-out deleted it) is
   * not written back with its tokens. */
  renewAccess(key: string, sealedTokens: string, accessExpiresAt: number): Promise<void>;
  /** Null for none; also for a session stored before its tokens were sealed, which is no longer
   * used: its person signs in again. */
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
export async function openSession(
  deps: { sessions: DashboardSessionStore; sealer: SessionTokenSealer },
  tokens: SessionTokens,
  now = new Date(),
): Promise<{ cookieValue: string; sessionId: string; maxAgeSeconds: number }> {
  const cookieValue = randomBytes(32).toString('base64url');
  const seconds = Math.floor(now.getTime() / 1000);
  if (!tokens.refreshToken) throw new Error('A sign-in gave no refresh token');
  const key = sessionKeyOf(cookieValue);
  await deps.sessions.save(key, {
    personId: tokens.personId,
    sessionId: tokens.sessionId,
    authTime: seconds,
    openedAt: seconds,
    expiresAt: seconds + SESSION_LIFETIME_SECONDS,
    sealedTokens: await sealTokens(deps.sealer, key, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }),
    accessExpiresAt: seconds + tokens.expiresInSeconds,
  });
  return { cookieValue, sessionId: tokens.sessionId, maxAgeSeconds: SESSION_LIFETIME_SECONDS };
}

/** Both tokens, sealed for the session whose key is `key`: one sealing, one value. */
export async function sealTokens(sealer: SessionTokenSealer, key: string, tokens: StoredTokens): Promise<string> {
  return sealer.seal(JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }), sealingContextOf(key));
}

/** The session's tokens, opened: throws when they were not sealed for this session. */
export async function openTokens(sealer: SessionTokenSealer, key: string, session: Pick<DashboardSession, 'sealedTokens'>): Promise<StoredTokens> {
  const { accessToken, refreshToken } = JSON.parse(await sealer.open(session.sealedTokens, sealingContextOf(key))) as Partial<StoredTokens>;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string') throw new Error("A session's sealed tokens hold no access and refresh token");
  return { accessToken, refreshToken };
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
 * person (two-factor, password, sign-out): its tokens opened (one call to the sealer), and the access
 * token renewed from the refresh token when it has expired (the renewed pair sealed and stored:
 * one more). AUTH_FAILED when the session is gone or Cognito no longer renews it (signed out).
 * `session`: the cookie's session when the caller has just read it (sign-out), not read again.
 */
export async function identityTokenOf(
  deps: { sessions: DashboardSessionStore; sealer: SessionTokenSealer; refresh: (refreshToken: string) => Promise<SessionTokens> },
  cookieValue: string | undefined,
  { now = new Date(), session: known }: { now?: Date; session?: DashboardSession } = {},
): Promise<string> {
  const session = known ?? (await sessionOf(deps.sessions, cookieValue, now));
  if (!session || !cookieValue) throw new ApiError('AUTH_FAILED', 'No session: sign in');
  const key = sessionKeyOf(cookieValue);
  const tokens = await openTokens(deps.sealer, key, session);
  const seconds = Math.floor(now.getTime() / 1000);
  if (session.accessExpiresAt - RENEW_MARGIN_SECONDS > seconds) return tokens.accessToken;
  const renewed = await deps.refresh(tokens.refreshToken);
  // Cognito keeps the refresh token it was given unless it rotates it.
  const sealed = await sealTokens(deps.sealer, key, { accessToken: renewed.accessToken, refreshToken: renewed.refreshToken ?? tokens.refreshToken });
  await deps.sessions.renewAccess(key, sealed, seconds + renewed.expiresInSeconds);
  return renewed.accessToken;
}

/** Ends the cookie's session (its stored tokens go with it). */
export async function closeSession(store: DashboardSessionStore, cookieValue: string | undefined): Promise<void> {
  if (cookieValue) await store.remove(sessionKeyOf(cookieValue));
}
