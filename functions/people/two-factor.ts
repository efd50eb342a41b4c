import { ApiError, validationFailed } from '../shared/errors.ts';
import { getCompany, type CompanyStore } from '../companies/company.ts';
import { checkedCode } from './code-attempts.ts';
import { mailMembersWho } from './member-mail.ts';
import type { Membership, MemberStanding } from './team.ts';
import type { Log } from '../shared/log.ts';
import { twoFactorRequiredMail, type Mailer } from '../mail/mail.ts';
import type { TeamStore } from './team-members.ts';
import { auditEntry, type AuditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { actorOf, type Caller } from './caller.ts';
import type { SessionTokens, TwoFactorChallenge, TwoFactorProvider } from './identity.ts';
import { auditOfPerson, auditPerson, type MembershipStore, type PersonAudit } from './memberships.ts';
import { auditSignIn, signInCompleted } from './sign-in.ts';
import { signInAgain, type Proof, type Reauthentication } from './step-up.ts';

/**
 * Two-factor sign-in with an authenticator app (TOTP), Cognito's SOFTWARE_TOKEN_MFA. A person turns
 * it on for themselves from Account: Cognito hands out a secret, the app shows codes, one code
 * proves the app has it, and from then on a sign-in asks for a code after the password. A payments
 * dashboard issues API keys, so a password alone should not be enough to take it over.
 *
 * Cognito holds the secret and checks the codes; we never store either. Every code goes through
 * Cambio's own limits on codes (code-attempts.ts): a lock after wrong ones, each used once.
 */

/** The person's mark that they have two-factor sign-in on (team.ts MemberStanding reads it). */
export interface TwoFactorMarks {
  markTwoFactorOn(personId: string, since: string): Promise<void>;
  /** The mark removed with the audit entries, all or nothing. */
  markTwoFactorOff(personId: string, audit: AuditEntry[]): Promise<void>;
  /** The person, having proved it is them, began replacing their app; turning it on spends it. */
  markReplacementBegun(personId: string, at: string): Promise<void>;
  replacementBegunAt(personId: string): Promise<string | null>;
}

/** How long a replacement begun with the person's proof may be confirmed: the minutes of the set-up. */
export const REPLACEMENT_CONFIRM_MS = 15 * 60 * 1000;

/** What turning two-factor on, replacing its app and turning it off use. */
export interface TwoFactorDeps extends Reauthentication, PersonAudit {
  identity: TwoFactorProvider & Reauthentication['identity'];
  memberships: Pick<MembershipStore, 'membershipsOf'> & { standingOf(companyId: string, personId: string): Promise<MemberStanding> };
  marks: TwoFactorMarks;
  companies: CompanyStore;
}

/** The signed-in person, by their session. */
export interface SessionCaller {
  personId: string;
  accessToken: string;
}

export const ISSUER_NAME = 'Cambio';

/** The `otpauth://` URI authenticator apps read (as a QR code or pasted), Google Authenticator's
 * Key URI format: label `Cambio:<email>`, the base32 secret, the issuer. */
export function authenticatorUri(secret: string, email: string | null): string {
  const label = encodeURIComponent(email ? `${ISSUER_NAME}:${email}` : ISSUER_NAME);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(ISSUER_NAME)}&algorithm=SHA1&digits=6&period=30`;
}

/** The code after the password: the session, and the sign-in in every company's audit log. The
 * sign-in is complete only now, so only now is its source known for the address (sign-in-limits.ts):
 * the password alone, without the code, proves nothing the limits may trust. */
export async function finishTwoFactorSignIn(
  deps: Pick<TwoFactorDeps, 'identity' | 'codes' | 'marks' | 'attempts'> & PersonAudit,
  challenge: TwoFactorChallenge['twoFactor'] | null,
  code: string,
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens> {
  if (!challenge) throw new ApiError('AUTH_FAILED', 'The sign-in has expired; sign in again');
  const session = await checkedCode(deps.codes, challenge.email, code, (digits) => deps.identity.answerChallenge(challenge, digits), 'code', now);
  // The pool answered the challenge for this address only (its session names the user), so the cookie's address is the person's.
  await signInCompleted(deps.attempts, challenge.email, origin, now);
  // Cognito may have it on with no mark in the table: the code writes it, for a company's rule to see.
  await deps.marks.markTwoFactorOn(session.personId, now.toISOString());
  await auditSignIn(deps, session.personId, origin, now);
  return session;
}

/** To replace an app the person has on: their `password` and the code that app shows now. */
export interface ReplacementProof {
  password?: string;
  currentCode?: string;
}

/**
 * Account → set-up: a new authenticator secret from the identity provider, and its URI. Replacing
 * the app of someone who has it on asks first for what signing in would, their password and the
 * current app's code (step-up.ts): a set-up begun is itself a change at the user pool (Cognito's
 * reference: an AssociateSoftwareToken not verified leaves a pool that does not require MFA, as
 * ours does not, signing the person in on the password alone), so a session alone (a cookie copied
 * from a browser, within the route's recent sign-in) can neither weaken the person's sign-in nor
 * swap in an app of its own and lock them out. The pool must ask for the current app's code: one
 * that lets the person in on the password alone is in that weakened state, and a code it never
 * checked proves nothing (turning it off and setting up afresh is the way out).
 */
export async function startTwoFactorSetup(deps: TwoFactorDeps, caller: SessionCaller, proof: ReplacementProof, origin: RequestOrigin, now = new Date()): Promise<{ secret: string; uri: string }> {
  const person = await personOf(deps, caller);
  if (person.enabled) {
    const needed = (path: string) => validationFailed([{ path, message: 'is needed to replace your authenticator app: your password and the code the app you have now shows' }]);
    if (!proof.password) throw needed('password');
    if (!proof.currentCode) throw needed('currentCode');
    const { withCode } = await signInAgain(deps, person, { password: proof.password, code: proof.currentCode }, { origin, now }, 'currentCode');
    if (!withCode) {
      throw validationFailed([{ path: 'currentCode', message: 'could not be checked: signing in did not ask for it, as after a replacement begun and left. Confirm that one with the app you added its key to, or turn two-factor sign-in off and set it up again' }]);
    }
  }
  const { secret } = await deps.identity.startSetup(caller.accessToken);
  if (person.enabled) await deps.marks.markReplacementBegun(caller.personId, now.toISOString());
  return { secret, uri: authenticatorUri(secret, person.email) };
}

/**
 * Confirms the set-up with the app's first code; the change goes in every company's audit log, as a
 * sign-in does: an Owner sees who has turned two-factor sign-in on, or replaced the app. The set-up
 * it confirms was begun by the person (a replacement only after their proof: startTwoFactorSetup),
 * and its secret went to them alone; the route asks for a recent sign-in as well.
 */
export async function turnOnTwoFactor(deps: TwoFactorDeps, caller: SessionCaller, answer: { code: string }, origin: RequestOrigin, now = new Date()): Promise<{ enabled: true }> {
  const person = await personOf(deps, caller);
  // A replacement is confirmed only where this code began it after the proof: a set-up begun
  // otherwise (by a session alone, before this rule was deployed) is not the person's.
  if (person.enabled) {
    const begun = await deps.marks.replacementBegunAt(caller.personId);
    if (begun === null || now.getTime() - Date.parse(begun) > REPLACEMENT_CONFIRM_MS) {
      throw validationFailed([{ path: 'code', message: 'confirms no replacement begun with your password and current code in the last 15 minutes: begin it again' }]);
    }
  }
  await checkedCode(deps.codes, person.email, answer.code, (code) => deps.identity.confirmSetup(caller.accessToken, code), 'code', now);
  await deps.marks.markTwoFactorOn(caller.personId, now.toISOString());
  await auditPerson(deps, caller.personId, person.enabled ? 'two_factor.replaced' : 'two_factor.enabled', origin, now);
  return { enabled: true };
}

/**
 * Account → `Turn off two-factor sign-in`, with the same proof as replacing the app. Refused while a
 * company of the person's requires it: the rule would refuse them everything there at their next
 * call, and a member weakening a rule an Owner set is not the member's to do; an Owner stops
 * requiring it first (Team).
 */
export async function turnOffTwoFactor(deps: TwoFactorDeps, caller: SessionCaller, proof: Proof, origin: RequestOrigin, now = new Date()): Promise<{ enabled: false }> {
  const person = await personOf(deps, caller);
  if (!person.enabled) return { enabled: false };
  const memberships = await deps.memberships.membershipsOf(caller.personId);
  const standings = await Promise.all(memberships.map((m) => deps.memberships.standingOf(m.companyId, m.personId)));
  const requiring = memberships.filter((_, index) => standings[index]!.twoFactorRequired);
  if (requiring.length > 0) {
    const names = await Promise.all(requiring.map(async (m) => (await getCompany(deps.companies, m.companyId)).name));
    throw new ApiError('FORBIDDEN', `${names.join(', ')} requires two-factor sign-in of every member: an Owner can stop requiring it under Team`, { reason: 'REQUIRED_BY_COMPANY' });
  }
  await signInAgain(deps, person, proof, { origin, now });
  await deps.identity.turnOff(caller.accessToken);
  await deps.marks.markTwoFactorOff(caller.personId, await auditOfPerson(deps.memberships, caller.personId, 'two_factor.disabled', origin, now));
  return { enabled: false };
}

async function personOf(deps: TwoFactorDeps, caller: SessionCaller): Promise<{ personId: string; email: string; enabled: boolean }> {
  const { email, enabled } = await deps.identity.status(caller.accessToken);
  // Every user the dashboard makes has one (identity-provider.ts createUser).
  if (!email) throw new Error('The identity provider answered without the person\'s email');
  return { personId: caller.personId, email, enabled };
}

// --- A company's rule: every member signs in with a code.

/** Team → Two-factor sign-in: whether the company requires it of every member (requireStanding in
 * team.ts refuses a member without it everything in the company), and since when. */
export interface TwoFactorRequirement {
  required: boolean;
  changedAt: string | null;
}

export interface TwoFactorRequirementStore {
  isTwoFactorOn(personId: string): Promise<boolean>;
  /** The requirement with its audit entry, all or nothing. */
  setTwoFactorRequirement(companyId: string, requirement: TwoFactorRequirement, audit: AuditEntry): Promise<void>;
}

/** The rule, the team it stops (to mail), and the stage's mailer (null: none). */
export interface TwoFactorRequirementDeps {
  store: TwoFactorRequirementStore;
  companies: CompanyStore;
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
    await mailMembersWho(withoutIt, { companies: deps.companies, members: deps.members, mailer: deps.mailer }, companyId, (to, companyName) =>
      twoFactorRequiredMail({ to, companyName, by: caller.membership.email }),
    );
  } catch (error) {
    deps.log.warn('two-factor requirement not mailed', { companyId, error: (error as Error).name ?? 'Error' });
  }
}
