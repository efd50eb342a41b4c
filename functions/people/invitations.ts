import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../api-keys/api-keys.ts';
import { auditEntry, type AuditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { createCompanyRecord, type Company } from '../companies/company.ts';
import { ApiError, notFound } from '../shared/errors.ts';
import { actorOf, COMMAND_LINE } from './caller.ts';
import { releaseUnverifiedAddress, type EmailVerificationStore, type UnverifiedAccounts } from './email-verification.ts';
import type { IdentityProvider, SessionTokens } from './identity.ts';
import { signInNewPerson } from './sign-in.ts';
import { checkEmail, type Membership, type Person, type Role } from './team.ts';

/** Invitations: how a person joins a company, and how a company's first Owner arrives where there
 * is no self sign-up. The link holds the token; the table keeps its hash. */
export interface Invitation {
  tokenHash: string;
  companyId: string;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
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
export function newInvitation(companyId: string, email: string, role: Role, now: Date): { invitation: Invitation; token: string } {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    invitation: { tokenHash: hashToken(token), companyId, email, role, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(), createdAt: now.toISOString() },
  };
}

/** `company:create --owner-email`: the company and an invitation whose token is only in the link. */
export async function createCompanyInvitingOwner(
  store: Pick<InvitationStore, 'createCompanyWithInvitation'>,
  input: { name: string; environment: Environment; ownerEmail: string },
  now = new Date(),
): Promise<{ company: Company; token: string; invitation: Invitation }> {
  const email = checkEmail(input.ownerEmail);
  const company = createCompanyRecord({ name: input.name, environment: input.environment }, now);
  const { invitation, token } = newInvitation(company.id, email, 'Owner', now);
  const audit = auditEntry(company.id, 'invitation.created', COMMAND_LINE.actor, COMMAND_LINE.origin, now, email, { role: 'Owner' });
  await store.createCompanyWithInvitation(company, invitation, audit);
  return { company, token, invitation };
}

/** What following an invitation's link uses: the user pool, the invitations, and the people's
 * `Person` (an unproven account holding the address is replaced). */
export interface InvitationAcceptance {
  identity: IdentityProvider & UnverifiedAccounts;
  invitations: Pick<InvitationStore, 'findInvitation' | 'acceptInvitation'>;
  people: EmailVerificationStore;
}

export async function acceptInvitation(deps: InvitationAcceptance, input: { token: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<SessionTokens> {
  const { identity } = deps;
  const invitation = await deps.invitations.findInvitation(hashToken(input.token));
  // An unknown, used or expired link are one answer: the link no longer works.
  if (!invitation || invitation.expiresAt <= now.toISOString()) throw notFound('Invitation');
  // The link proves the mailbox: an account that only claimed the address (a sign-up never
  // verified, perhaps with a second factor of a stranger's) is deleted, not asked for its password.
  await releaseUnverifiedAddress(identity, deps.people, invitation.email);
  const personId = await invitedPerson(identity, invitation.email, input.password);
  const person: Person = { personId, email: invitation.email, createdAt: now.toISOString(), emailVerifiedAt: now.toISOString() };
  const membership: Membership = { companyId: invitation.companyId, personId, email: invitation.email, role: invitation.role, createdAt: now.toISOString() };
  await deps.invitations.acceptInvitation(invitation, person, membership, auditEntry(invitation.companyId, 'invitation.accepted', actorOf(membership), origin, now, invitation.email));
  return signInNewPerson(identity, invitation.email, input.password);
}

/** A new person sets their password here; someone who already has an account (a member of another
 * company) proves it is theirs with their current password instead, and joins with it. */
async function invitedPerson(identity: IdentityProvider, email: string, password: string): Promise<string> {
  try {
    return (await identity.createUser(email, password)).personId;
  } catch (error) {
    const taken = error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details) && error.details.some((d) => d.path === 'email');
    if (!taken) throw error;
    const outcome = await identity.signIn(email, password);
    // Not yet: the link's page has no step for the second factor.
    if ('twoFactor' in outcome) throw new ApiError('VALIDATION_FAILED', 'This account uses two-factor sign-in, which joining through a link does not support yet', [{ path: 'password', message: 'belongs to an account with two-factor sign-in' }]);
    return outcome.personId;
  }
}
