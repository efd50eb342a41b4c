import type { RequestOrigin } from '../companies/audit-log.ts';
import { ApiError, signInRefused } from '../shared/errors.ts';
import { requireVerified, type EmailVerificationStore } from './email-verification.ts';
import type { IdentityProvider, SessionTokens, TwoFactorChallenge } from './identity.ts';
import { auditPerson, type PersonAudit } from './memberships.ts';
import { attemptKey, signInSucceeded, withinSignInLimits, type SignInAttempts } from './sign-in-limits.ts';
import { checkEmail, normaliseEmail } from './team.ts';

/** What the sign-in page's password step uses: the user pool, the people's `Person` (whether their
 * address is proven), Cambio's own counts of failures, and the audit logs a sign-in goes in. */
export interface SignInDeps extends PersonAudit {
  identity: IdentityProvider;
  people: Pick<EmailVerificationStore, 'getPerson'>;
  attempts: SignInAttempts;
  /** The person's two-factor mark (two-factor.ts), which a company's rule reads. */
  marks: { isTwoFactorOn(personId: string): Promise<boolean>; markTwoFactorOff(personId: string, audit: []): Promise<void> };
}

/** Within Cambio's limits on failures (sign-in-limits.ts), which count an address with no account
 * as one with; every company the person belongs to logs the sign-in: each one's Owners see who came in. */
export async function signIn(deps: SignInDeps, input: { email: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<SessionTokens | TwoFactorChallenge> {
  const { identity } = deps;
  const outcome = await checkedPassword(identity, deps.attempts, input, origin, now);
  // Not complete yet: the counts are cleared when the code is (two-factor.ts finishTwoFactorSignIn).
  if ('twoFactor' in outcome) return outcome;
  const email = normaliseEmail(input.email);
  // A sign-up whose address was never proven (email-verification.ts): the tokens just issued are dropped.
  await requireVerified(deps.people, outcome.personId, email).catch(async (error: unknown) => {
    await identity.signOut(outcome.accessToken);
    throw error;
  });
  await signInCompleted(deps.attempts, email, origin, now);
  // Let in on the password alone: the mark follows the pool (the other way, finishTwoFactorSignIn marks it on).
  await followPoolTwoFactorOff(deps.marks, outcome.personId);
  await auditSignIn(deps, outcome.personId, origin, now);
  return outcome;
}

/**
 * The user pool is the source of truth: it let the person in on the password alone, so their second
 * factor is off there, whatever the mark says (turned off where Cambio did not see it, by an
 * operator in the console). The mark follows, so a company that requires two-factor sign-in refuses
 * them and Team shows it off. At the sign-in page and at `Confirm it's you` (step-up.ts).
 */
export async function followPoolTwoFactorOff(marks: SignInDeps['marks'], personId: string): Promise<void> {
  if (await marks.isTwoFactorOn(personId)) await marks.markTwoFactorOff(personId, []);
}

/** The email and password, within Cambio's limits on failures (sign-in-limits.ts). The caller calls
 * signInCompleted once the sign-in is complete (the address proven, the second factor answered),
 * not as soon as the pool accepts the password. */
export async function checkedPassword(
  identity: Pick<IdentityProvider, 'signIn'>,
  attempts: SignInAttempts,
  input: { email: string; password: string },
  origin: RequestOrigin,
  now: Date,
): Promise<SessionTokens | TwoFactorChallenge> {
  const email = signInAddress(input.email);
  return withinSignInLimits(attempts, attemptKey(email, origin.sourceIp), now, () => identity.signIn(email, input.password));
}

/** The sign-in of `email` from `origin` is complete: its source is known for the address, and the counts start again. */
export const signInCompleted = (attempts: SignInAttempts, email: string, origin: RequestOrigin, now: Date): Promise<void> =>
  signInSucceeded(attempts, attemptKey(email, origin.sourceIp), now);

/**
 * The address to sign in, normalised. Cognito also takes a person's username, their `sub` (the
 * personId a co-member sees on Team), where an address is expected (as the two-factor cookie's
 * reader says, functions/http/cookies.ts): counted under its own hash, one person's failures would
 * get a second allowance. Anything but an address is refused before it is counted or the pool is
 * asked, with the answer a wrong email or password gets.
 */
function signInAddress(email: string): string {
  try {
    return checkEmail(email);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') throw signInRefused.wrongEmailOrPassword();
    throw error;
  }
}

/** Someone who has just set their password has no second factor yet: a challenge is a bug. */
export async function signInNewPerson(identity: IdentityProvider, email: string, password: string): Promise<SessionTokens> {
  const outcome = await identity.signIn(email, password);
  if ('twoFactor' in outcome) throw new Error('A person who just set their password was asked for a second factor');
  return outcome;
}

/** A sign-in goes in the audit log of every company the person belongs to. */
export async function auditSignIn(deps: PersonAudit, personId: string, origin: RequestOrigin, now: Date): Promise<void> {
  await auditPerson(deps, personId, 'signed_in', origin, now);
}
