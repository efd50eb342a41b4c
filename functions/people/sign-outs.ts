/**
 * Signing out ends a person's sessions at once, on every device.
 *
 * The sign-out is recorded here, and the session authorizer refuses every dashboard session of that
 * person opened before it (functions/people/dashboard-sessions.ts liveSessionOf), whoever holds its
 * cookie; Cognito's GlobalSignOut then revokes the refresh tokens those sessions hold, so none can
 * be renewed at the user pool either. A changed or reset password records one too.
 *
 * Times are whole seconds. A session opened in the second of the sign-out is refused when it is the
 * session signed out (same `originJti`, Cognito's id of the sign-in) and admitted otherwise, so
 * signing in again at once works.
 */

export interface SignOut {
  personId: string;
  /** ISO 8601 with milliseconds. */
  at: string;
  /** The `origin_jti` of the session that signed out; null when the token carried none. */
  originJti: string | null;
}

export interface SignOuts {
  /** Keeps the latest sign-out of the person: an earlier one arriving late changes nothing. */
  record(signOut: SignOut): Promise<void>;
  lastOf(personId: string): Promise<SignOut | null>;
}

/** What a sign-out is compared with: a session's person, when it was opened and its sign-in. */
export interface SessionToken {
  personId: string;
  /** Epoch seconds. */
  issuedAt: number;
  originJti: string | null;
}

/** Whether the person's sign-out ended this session. */
export function endedBySignOut(token: SessionToken, signOut: SignOut | null): boolean {
  if (!signOut || signOut.personId !== token.personId) return false;
  if (token.originJti !== null && token.originJti === signOut.originJti) return true;
  const signedOutSecond = Math.floor(Date.parse(signOut.at) / 1000);
  return token.issuedAt < signedOutSecond;
}

/** A session's longest life (dashboard-sessions.ts SESSION_LIFETIME_SECONDS): after it, no session
 * from before a sign-out is alive, and its record can go. */
export const LONGEST_SESSION_SECONDS = 30 * 86_400;

/**
 * Signs the person out everywhere: the sign-out recorded first (so their sessions stop working even
 * if Cognito fails next), then Cognito's GlobalSignOut revokes their refresh tokens. No session
 * (gone, expired, never opened) ends nothing and writes nothing.
 */
export async function signOutEverywhere(
  session: { personId: string; sessionId: string } | null,
  deps: { signOuts: SignOuts; revokeRefreshTokens(): Promise<void> },
  now = new Date(),
): Promise<void> {
  if (!session) return;
  await deps.signOuts.record({ personId: session.personId, at: now.toISOString(), originJti: session.sessionId });
  await deps.revokeRefreshTokens();
}
