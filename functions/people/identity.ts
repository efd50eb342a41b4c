/**
 * The user pool's side of a person (AWS: Cognito; locally: local/cognito-emulator.ts): it holds
 * passwords and issues sessions; the table holds what Cambio knows of people (memberships.ts).
 */
export interface SessionTokens {
  accessToken: string;
  /** Absent when a refresh answers (Cognito keeps the refresh token it was given). */
  refreshToken: string | null;
  expiresInSeconds: number;
  personId: string;
  /** The sign-in these tokens descend from (Cognito's `origin_jti`), the same after every refresh:
   * the session's CSRF token is derived from it (functions/http/cookies.ts csrfTokenFor). */
  sessionId: string;
}

/** The right password of someone with two-factor sign-in on: the code comes next
 * (two-factor.ts). `session` is Cognito's challenge session (3 minutes, one answer). */
export interface TwoFactorChallenge {
  twoFactor: { email: string; session: string };
}

/** The few Cognito actions the dashboard needs. */
export interface IdentityProvider {
  /** A confirmed user with this email and password; VALIDATION_FAILED when the email is taken or
   * the password breaks the pool's policy. */
  createUser(email: string, password: string): Promise<{ personId: string }>;
  /** AUTH_FAILED for a wrong email or password, RATE_LIMITED while the pool locks the user out. */
  signIn(email: string, password: string): Promise<SessionTokens | TwoFactorChallenge>;
  refresh(refreshToken: string): Promise<SessionTokens>;
  signOut(accessToken: string): Promise<void>;
}

/** The user pool's two-factor sign-in with an authenticator app (two-factor.ts): Cognito holds the
 * secret and checks the codes. */
export interface TwoFactorProvider {
  /** AUTH_FAILED for a wrong code (a WrongCodeError) or a challenge that has expired or was already answered. */
  answerChallenge(challenge: TwoFactorChallenge['twoFactor'], code: string): Promise<SessionTokens>;
  /** A new secret for the person's authenticator app; two-factor stays off (or on the old app) until confirmed. */
  startSetup(accessToken: string): Promise<{ secret: string }>;
  /** VALIDATION_FAILED on a wrong code (a WrongCodeError); on a right one two-factor sign-in is on, with this app. */
  confirmSetup(accessToken: string, code: string): Promise<void>;
  /** Two-factor sign-in off: a sign-in asks for the password alone. */
  turnOff(accessToken: string): Promise<void>;
  /** The person's email (the authenticator label) and whether two-factor sign-in is on. */
  status(accessToken: string): Promise<{ email: string | null; enabled: boolean }>;
}
