/**
 * Signing out ends a person's sessions at once, not when their access tokens expire.
 *
 * The dashboard's sign-out is Cognito's GlobalSignOut: every refresh token of the person is
 * revoked, on every device. The access tokens already issued are JWTs checked offline (signature
 * and expiry, functions/adapters/cognito/session-verifier.ts), so Cognito's revocation does not
 * reach them: a copied session cookie would keep working for up to the token's validity (an hour).
 * So the sign-out is also recorded here, and the session authorizer refuses every access token of
 * that person issued before it.
 *
 * Token times are whole seconds. A token issued in the second of the sign-out is refused when it
 * belongs to the session signed out (same `origin_jti`, which Cognito keeps across refreshes) and
 * admitted otherwise, so signing in again at once works.
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

/** What the session authorizer knows of a verified access token. */
export interface SessionToken {
  personId: string;
  /** `iat`, epoch seconds. */
  issuedAt: number;
  originJti: string | null;
}

/** Whether the person's sign-out ended the session this token belongs to. */
export function endedBySignOut(token: SessionToken, signOut: SignOut | null): boolean {
  if (!signOut || signOut.personId !== token.personId) return false;
  if (token.originJti !== null && token.originJti === signOut.originJti) return true;
  const signedOutSecond = Math.floor(Date.parse(signOut.at) / 1000);
  return token.issuedAt < signedOutSecond;
}

/** Cognito's longest access-token validity: after it, no token from before a sign-out is alive. */
export const LONGEST_ACCESS_TOKEN_SECONDS = 24 * 60 * 60;

/**
 * Signs the person out everywhere: the sign-out recorded first (so the session's access tokens
 * stop working even if Cognito fails next), then Cognito's GlobalSignOut revokes their refresh
 * tokens. A token that no longer verifies (expired, forged) ends nothing and writes nothing.
 */
export async function signOutEverywhere(
  accessToken: string,
  deps: { verify(accessToken: string): Promise<SessionToken>; signOuts: SignOuts; revokeRefreshTokens(accessToken: string): Promise<void> },
  now = new Date(),
): Promise<void> {
  let token: SessionToken;
  try {
    token = await deps.verify(accessToken);
  } catch {
    return;
  }
  await deps.signOuts.record({ personId: token.personId, at: now.toISOString(), originJti: token.originJti });
  await deps.revokeRefreshTokens(accessToken);
}
