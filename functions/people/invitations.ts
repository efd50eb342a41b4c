import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../api-keys/api-keys.ts';
import { auditEntry, type AuditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { createCompanyRecord, type Company } from '../companies/company.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import { actorOf, commandLine } from './caller.ts';
import { releaseUnverifiedAddress, type EmailVerificationStore, type UnverifiedAccounts } from './email-verification.ts';
import type { IdentityProvider, SessionTokens, TwoFactorChallenge } from './identity.ts';
import type { PersonAudit } from './memberships.ts';
import { auditSignIn, followPoolTwoFactorOff, signInCompleted, signInNewPerson, type SignInDeps } from './sign-in.ts';
import { attemptKey, withinSignInLimits, type SignInAttempts } from './sign-in-limits.ts';
import { checkEmail, passwordProblems, type Membership, type Person, type Role } from './team.ts';

/** Invitations: how a person joins a company, and how a company's first Owner arrives where there
 * is no self sign-up. The link holds the token; the table keeps its hash. */
export interface Invitation {
  tokenHash: string;
  companyId: string;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
  /** The member who made it (or last resent it), whose removal or new role revokes it; null from
   * the command line, and on an invitation stored before this was kept. */
  invitedBy: string | null;
}

/** An invitation's link followed, and a company made with one (the Team page's own invitations are
 * team-members.ts TeamStore's). */
export interface InvitationStore {
  /** Company, zero balances, the invitation and its audit entry, all or nothing. */
  createCompanyWithInvitation(company: Company, invitation: Invitation, audit: AuditEntry): Promise<void>;
  findInvitation(tokenHash: string): Promise<Invitation | null>;
  /** Deletes the invitation (only if still there) with the person, membership and audit entry. */
  acceptInvitation(invitation: Invitation, person: Person, membership: Membership, audit: AuditEntry): Promise<void>;
}

export const INVITATION_TTL_MS = 7 * 86_400_000;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new invitation (7 days, works once) and its token, which only the link holds: the table keeps its hash. */
export function newInvitation(companyId: string, email: string, role: Role, now: Date, invitedBy: string | null): { invitation: Invitation; token: string } {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    invitation: { tokenHash: hashToken(token), companyId, email, role, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(), createdAt: now.toISOString(), invitedBy },
  };
}

/** `company:create --owner-email`: the company and an invitation whose token is only in the link. */
export async function createCompanyInvitingOwner(
  store: Pick<InvitationStore, 'createCompanyWithInvitation'>,
  input: { name: string; environment: Environment; ownerEmail: string },
  now = new Date(),
  operator: string | null = null,
): Promise<{ company: Company; token: string; invitation: Invitation }> {
  const email = checkEmail(input.ownerEmail);
  const company = createCompanyRecord({ name: input.name, environment: input.environment }, now);
  const { invitation, token } = newInvitation(company.id, email, 'Owner', now, null);
  const by = commandLine(operator);
  const audit = auditEntry(company.id, 'invitation.created', by.actor, by.origin, now, email, { role: 'Owner' });
  await store.createCompanyWithInvitation(company, invitation, audit);
  return { company, token, invitation };
}

/** What following an invitation's link uses: the user pool, the invitations, the people's `Person`
 * (an unproven account holding the address is replaced), the sign-in limits, and the audit logs a
 * sign-in goes in. */
export interface InvitationAcceptance extends PersonAudit {
  identity: IdentityProvider & UnverifiedAccounts;
  invitations: Pick<InvitationStore, 'findInvitation' | 'acceptInvitation'>;
  people: EmailVerificationStore;
  attempts: SignInAttempts;
  /** Each person's two-factor mark, which follows the user pool here as at the sign-in page. */
  marks: SignInDeps['marks'];
}

/**
 * The mailed link proves the mailbox (its token reached only the invited address, team-members.ts);
 * the password is then a sign-in like any other (sign-in.ts): within Cambio's limits on failures,
 * counted before the user pool is asked, audited `signed_in` in each of the person's companies, and
 * its session's clock for a recent sign-in starts now, as POST /session's does.
 *
 * A new person chooses their password here; someone who already has an account proves it is theirs
 * with its password, and joins with it. A password the pool's policy refuses is refused first, the
 * same for both, so the answer to a weak password does not tell whether the address has an account.
 */
export async function acceptInvitation(deps: InvitationAcceptance, input: { token: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<SessionTokens & { companyId: string }> {
  const { identity } = deps;
  const invitation = await deps.invitations.findInvitation(hashToken(input.token));
  // An unknown, used or expired link are one answer: the link no longer works.
  if (!invitation || invitation.expiresAt <= now.toISOString()) throw notFound('Invitation');
  const problems = passwordProblems(input.password);
  if (problems.length) throw validationFailed([{ path: 'password', message: `Password does not conform to policy: needs ${problems.join(', ')}` }]);
  const outcome = await withinSignInLimits(deps.attempts, attemptKey(invitation.email, origin.sourceIp), now, async () => {
    // The link proves the mailbox: an account that only claimed the address (a sign-up never
    // verified, perhaps with a second factor of a stranger's) is deleted, not asked for its password.
    await releaseUnverifiedAddress(identity, deps.people, invitation.email);
    return invitedPersonSignIn(identity, invitation.email, input.password);
  });
  // Not yet: the link's page has no step for the second factor (the challenge is dropped unanswered).
  if ('twoFactor' in outcome) throw new ApiError('VALIDATION_FAILED', 'This account uses two-factor sign-in, which joining through a link does not support yet', [{ path: 'password', message: 'belongs to an account with two-factor sign-in' }]);
  const session = outcome;
  const person: Person = { personId: session.personId, email: invitation.email, createdAt: now.toISOString(), emailVerifiedAt: now.toISOString() };
  const membership: Membership = { companyId: invitation.companyId, personId: session.personId, email: invitation.email, role: invitation.role, createdAt: now.toISOString() };
  try {
    await deps.invitations.acceptInvitation(invitation, person, membership, auditEntry(invitation.companyId, 'invitation.accepted', actorOf(membership), origin, now, invitation.email));
  } catch (error) {
    // Accepted or revoked meanwhile: the session just issued is not handed out.
    await identity.signOut(session.accessToken);
    throw error;
  }
  // Complete: the link proved the address, and the password let the person in without a second factor.
  await signInCompleted(deps.attempts, invitation.email, origin, now);
  // The pool let them in on the password alone, so two-factor is off there (an operator turned it
  // off): the mark follows, as at the sign-in page, and a company that requires it refuses them.
  await followPoolTwoFactorOff(deps.marks, session.personId);
  await auditSignIn(deps, session.personId, origin, now);
  // The company joined, which the page opens (a person of several companies lands in this one).
  return { ...session, companyId: invitation.companyId };
}

/** The user for a new address, signed in; or the existing account's sign-in with its password
 * (AUTH_FAILED when wrong, RATE_LIMITED while the pool locks it out). */
async function invitedPersonSignIn(identity: IdentityProvider, email: string, password: string): Promise<SessionTokens | TwoFactorChallenge> {
  try {
    await identity.createUser(email, password);
    return await signInNewPerson(identity, email, password);
  } catch (error) {
    const taken = error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details) && error.details.some((d) => d.path === 'email');
    if (!taken) throw error;
  }
  return identity.signIn(email, password);
}
