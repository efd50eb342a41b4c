import { ApiError, validationFailed } from './errors.ts';
import { auditEntry, type RequestOrigin } from './audit-log.ts';
import { auditSignIn, type DashboardStore, type SessionTokens, type TwoFactorChallenge } from './dashboard.ts';

/**
 * Two-factor sign-in with an authenticator app (TOTP), Cognito's SOFTWARE_TOKEN_MFA. A person turns
 * it on for themselves from Account: Cognito hands out a secret, the app shows codes, one code
 * proves the app has it, and from then on a sign-in asks for a code after the password. A payments
 * dashboard issues API keys, so a password alone should not be enough to take it over.
 *
 * Cognito holds the secret and checks the codes; we never store either.
 */
export interface TwoFactorProvider {
  /** AUTH_FAILED for a wrong code or a challenge that has expired or was already answered. */
  answerChallenge(challenge: TwoFactorChallenge['twoFactor'], code: string): Promise<SessionTokens>;
  /** A new secret for the person's authenticator app; two-factor stays off until confirmed. */
  startSetup(accessToken: string): Promise<{ secret: string }>;
  /** VALIDATION_FAILED on a wrong code; on a right one two-factor sign-in is on. */
  confirmSetup(accessToken: string, code: string): Promise<void>;
  /** The person's email (the authenticator label) and whether two-factor sign-in is on. */
  status(accessToken: string): Promise<{ email: string | null; enabled: boolean }>;
}

export const ISSUER_NAME = 'Cambio';

/** The `otpauth://` URI authenticator apps read (as a QR code or pasted), Google Authenticator's
 * Key URI format: label `Cambio:<email>`, the base32 secret, the issuer. */
export function authenticatorUri(secret: string, email: string | null): string {
  const label = encodeURIComponent(email ? `${ISSUER_NAME}:${email}` : ISSUER_NAME);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(ISSUER_NAME)}&algorithm=SHA1&digits=6&period=30`;
}

export function checkCode(code: string): string {
  const digits = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) throw validationFailed([{ path: 'code', message: 'must be the 6 digits your authenticator app shows' }]);
  return digits;
}

/** The code after the password: the session, and the sign-in in every company's audit log. */
export async function finishTwoFactorSignIn(
  provider: TwoFactorProvider,
  store: DashboardStore,
  challenge: TwoFactorChallenge['twoFactor'] | null,
  code: string,
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens> {
  if (!challenge) throw new ApiError('AUTH_FAILED', 'The sign-in has expired; sign in again');
  const session = await provider.answerChallenge(challenge, checkCode(code));
  await auditSignIn(store, session.personId, origin, now);
  return session;
}

/** Confirms the set-up with the app's first code; the change goes in every company's audit log,
 * as a sign-in does: an Owner sees who has turned two-factor sign-in on. */
export async function turnOnTwoFactor(
  provider: TwoFactorProvider,
  store: DashboardStore,
  caller: { personId: string; accessToken: string },
  code: string,
  origin: RequestOrigin,
  now = new Date(),
): Promise<{ enabled: true }> {
  await provider.confirmSetup(caller.accessToken, checkCode(code));
  const memberships = await store.membershipsOf(caller.personId);
  await store.appendAudit(memberships.map((m) => auditEntry(m.companyId, 'two_factor.enabled', { personId: m.personId, email: m.email }, origin, now)));
  return { enabled: true };
}
