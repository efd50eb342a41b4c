import { auditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { createCompanyRecord } from '../companies/company.ts';
import { actorOf } from './caller.ts';
import type { IdentityProvider, SessionTokens } from './identity.ts';
import { auditPerson, type MembershipStore, type PersonAudit } from './memberships.ts';
import { checkedPassword, signInCompleted } from './sign-in.ts';
import {
  countSignUpMail,
  findVerificationLink,
  linkUsedOrLapsed,
  mailVerificationLink,
  releaseUnverifiedAddress,
  sendQuietly,
  useVerificationLink,
  type EmailVerificationStore,
  type LinkMailing,
  type UnverifiedAccounts,
} from './email-verification.ts';
import { ApiError, validationFailed } from '../shared/errors.ts';
import { signUpAttemptMail } from '../mail/mail.ts';
import type { MailCounts } from '../mail/mail-limits.ts';
import { sleepUntil } from '../shared/retry.ts';
import type { SignInAttempts } from './sign-in-limits.ts';
import { checkEmail, passwordProblems, type Membership, type Person } from './team.ts';

/**
 * Sandbox sign-up (../shared/dashboard.md, Sign up), which proves the address before the account
 * is usable (email-verification.ts). Its answer is the same 202 whether or not the address has an
 * account, in the same time, so it tells nobody who has one; only the mail differs:
 * - a new address: the person (unverified), a sandbox company and the Owner membership are made,
 *   and the address is mailed a link to confirm it;
 * - an address whose person proved it: nothing is made, and its holder is mailed that someone tried;
 * - an address held by an account never proven: that account is deleted, and this sign-up takes its place.
 * Production has no self sign-up (the handler refuses it).
 */
export interface SignUpDeps extends LinkMailing {
  identity: IdentityProvider & UnverifiedAccounts;
  memberships: Pick<MembershipStore, 'createCompanyWithOwner'>;
  counts: MailCounts;
  /** The dashboard's sign-in page, named in the notice to an address's holder. */
  signInUrl: string;
  /** The least time before an answer (the SIGN_UP_ANSWER_MS setting), the same for every address. */
  answerMs: number;
}

export async function signUp(deps: SignUpDeps, input: { companyName: string; email: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<void> {
  const email = checkEmail(input.email);
  const company = createCompanyRecord({ name: input.companyName, environment: 'sandbox' }, now, 'companyName');
  // Checked here, not only by the pool: a weak password must be refused for a held address too.
  const problems = passwordProblems(input.password);
  if (problems.length) throw validationFailed([{ path: 'password', message: `Password does not conform to policy: needs ${problems.join(', ')}` }]);
  await answeringAt(Date.now() + deps.answerMs, async () => {
    await countSignUpMail(deps.counts, email, origin.sourceIp, now);
    if (await releaseUnverifiedAddress(deps.identity, deps.store, email)) {
      await sendQuietly(deps, signUpAttemptMail(email, deps.signInUrl));
      return;
    }
    const personId = await newAccount(deps.identity, email, input.password);
    if (!personId) return;
    const person: Person = { personId, email, createdAt: now.toISOString(), emailVerifiedAt: null };
    const membership: Membership = { companyId: company.id, personId, email, role: 'Owner', createdAt: now.toISOString() };
    await deps.memberships.createCompanyWithOwner(company, person, membership, auditEntry(company.id, 'signed_up', actorOf(membership), origin, now));
    await mailVerificationLink(deps, person, now);
  });
}

/** `Send the link again` (the Check your mail page, and sign-in refused for an unproven address):
 * the same 202 for every address; only a person still waiting for their link gets a new one. */
export async function resendVerificationLink(deps: Omit<SignUpDeps, 'signInUrl' | 'memberships'>, input: { email: string }, origin: RequestOrigin, now = new Date()): Promise<void> {
  const email = checkEmail(input.email);
  await answeringAt(Date.now() + deps.answerMs, async () => {
    await countSignUpMail(deps.counts, email, origin.sourceIp, now);
    const account = await deps.identity.findPerson(email);
    const person = account && (await deps.store.getPerson(account.personId));
    if (person && person.emailVerifiedAt === null) await mailVerificationLink(deps, { personId: person.personId, email }, now);
  });
}

/**
 * The mailed link's page: the link, and the password chosen at sign-up (within the sign-in limits),
 * so a link opened by someone who did not sign up verifies nobody else's password. It works once;
 * then the person is signed in and each of their companies logs `email.verified`.
 */
export async function verifyEmail(
  deps: PersonAudit & { identity: IdentityProvider; store: EmailVerificationStore; attempts: SignInAttempts },
  input: { token: string; password: string },
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens> {
  const link = await findVerificationLink(deps.store, input.token, now);
  const outcome = await checkedPassword(deps.identity, deps.attempts, { email: link.email, password: input.password }, origin, now);
  // An unproven account cannot have turned on a second factor; and a link of an account since replaced names another person.
  if ('twoFactor' in outcome) throw linkUsedOrLapsed();
  try {
    if (outcome.personId !== link.personId) throw linkUsedOrLapsed();
    await useVerificationLink(deps.store, link, now);
  } catch (error) {
    await deps.identity.signOut(outcome.accessToken);
    throw error;
  }
  // Complete only now that the link proved the address: the password alone is also a squatter's.
  await signInCompleted(deps.attempts, link.email, origin, now);
  await auditPerson(deps, link.personId, 'email.verified', origin, now);
  return outcome;
}

/** The user for a new address; null when another sign-up made one for it a moment ago (that one's link goes out). */
async function newAccount(identity: IdentityProvider, email: string, password: string): Promise<string | null> {
  try {
    return (await identity.createUser(email, password)).personId;
  } catch (error) {
    const taken = error instanceof ApiError && Array.isArray(error.details) && error.details.some((d) => d.path === 'email');
    if (taken) return null;
    throw error;
  }
}

/** Runs `work`, answering no sooner than `answerAt` either way: the time must not tell which way it went. */
async function answeringAt(answerAt: number, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } finally {
    await sleepUntil(answerAt);
  }
}
