import { ApiError, validationFailed } from './errors.ts';
import type { CompanyStore } from './company.ts';
import { mailMembersWho } from './member-mail.ts';
import type { Membership } from './team.ts';
import type { Log } from './log.ts';
import { twoFactorRequiredMail, type Mailer } from './mail.ts';
import type { TeamStore } from './team-members.ts';
import { auditEntry, type AuditEntry, type RequestOrigin } from './audit-log.ts';
import { actorOf, auditSignIn, type Caller, type DashboardStore, type SessionTokens, type TwoFactorChallenge } from './dashboard.ts';

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
  // Marks someone who turned it on before marks were written, for a company that requires it.
  await store.markTwoFactorOn(session.personId, now.toISOString());
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
  await store.markTwoFactorOn(caller.personId, now.toISOString());
  const memberships = await store.membershipsOf(caller.personId);
  await store.appendAudit(memberships.map((m) => auditEntry(m.companyId, 'two_factor.enabled', { personId: m.personId, email: m.email }, origin, now)));
  return { enabled: true };
}

// --- A company's rule: every member signs in with a code.

/** Team → Two-factor sign-in: whether the company requires it of every member (requireStanding in
 * team.ts refuses a member without it everything in the company), and since when. */
export interface TwoFactorRequirement {
  required: boolean;
  changedAt: string | null;
}

export interface TwoFactorRequirementStore extends CompanyStore {
  isTwoFactorOn(personId: string): Promise<boolean>;
  /** The requirement with its audit entry, all or nothing. */
  setTwoFactorRequirement(companyId: string, requirement: TwoFactorRequirement, audit: AuditEntry): Promise<void>;
}

/** The rule, the team it stops (to mail), and the stage's mailer (null: none). */
export interface TwoFactorRequirementDeps {
  store: TwoFactorRequirementStore;
  members: Pick<TeamStore, 'membersOf' | 'twoFactorOf'>;
  mailer: Mailer | null;
  log: Log;
}

/**
 * An Owner requires it (or stops requiring it). They must have it on themselves first, or the rule
 * would lock out the person who set it. Members without it are refused at their next call, and the
 * page tells them to turn it on under Account; each is also mailed, so the rule does not find them
 * first.
 */
export async function changeTwoFactorRequirement(deps: TwoFactorRequirementDeps, caller: Caller, required: boolean, now = new Date()): Promise<TwoFactorRequirement> {
  const { store } = deps;
  if (required && !(await store.isTwoFactorOn(caller.membership.personId))) {
    throw validationFailed([{ path: 'required', message: 'needs two-factor sign-in on your own account first (Account), and a sign-in with its code' }]);
  }
  const requirement = { required, changedAt: now.toISOString() };
  const action = required ? 'two_factor.required' : 'two_factor.not_required';
  await store.setTwoFactorRequirement(caller.membership.companyId, requirement, auditEntry(caller.membership.companyId, action, actorOf(caller.membership), caller.origin, now));
  if (required) await tellMembersWithoutIt(deps, caller);
  return requirement;
}

/** A failed mail is logged; the rule stands (the page explains it to whoever it stops). */
async function tellMembersWithoutIt(deps: TwoFactorRequirementDeps, caller: Caller): Promise<void> {
  const companyId = caller.membership.companyId;
  if (!deps.mailer) return;
  const withoutIt = async (members: Membership[]) => {
    const { on } = await deps.members.twoFactorOf(companyId, members.map((member) => member.personId));
    return members.filter((member) => !on.has(member.personId));
  };
  try {
    await mailMembersWho(withoutIt, { companies: deps.store, members: deps.members, mailer: deps.mailer }, companyId, (to, companyName) =>
      twoFactorRequiredMail({ to, companyName, by: caller.membership.email }),
    );
  } catch (error) {
    deps.log.warn('two-factor requirement not mailed', { companyId, error: (error as Error).name ?? 'Error' });
  }
}
