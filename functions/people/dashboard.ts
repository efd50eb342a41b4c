import type { Page, PageRequest } from '../shared/pagination.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, Environment } from '../api-keys/api-keys.ts';
import { auditEntry, type AuditActor, type AuditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { createCompanyRecord, getBalance, getCompany, type BalanceView, type Company, type CompanyStore } from '../companies/company.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import { releaseUnverifiedAddress, requireVerified, type EmailVerificationStore, type UnverifiedAccounts } from './email-verification.ts';
import { admitSignIn, attemptKey, signInSucceeded, type SignInAttempts } from './sign-in-limits.ts';
import { normaliseEmail, type Membership, type Person, type Role } from './team.ts';

/**
 * The dashboard's use cases (../shared/dashboard.md), over a store and an identity provider that
 * know nothing of each other: Cognito holds passwords, the table holds people's memberships, keys
 * and the audit log. Handlers under functions/handlers/dashboard/ call exactly one of these.
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
 * (functions/people/two-factor.ts). `session` is Cognito's challenge session (3 minutes, one answer). */
export interface TwoFactorChallenge {
  twoFactor: { email: string; session: string };
}

/** The few Cognito actions the dashboard needs (AWS: the user pool; locally: local/cognito-emulator.ts). */
export interface IdentityProvider {
  /** A confirmed user with this email and password; VALIDATION_FAILED when the email is taken or
   * the password breaks the pool's policy. */
  createUser(email: string, password: string): Promise<{ personId: string }>;
  /** AUTH_FAILED for a wrong email or password, RATE_LIMITED while the pool locks the user out. */
  signIn(email: string, password: string): Promise<SessionTokens | TwoFactorChallenge>;
  refresh(refreshToken: string): Promise<SessionTokens>;
  signOut(accessToken: string): Promise<void>;
}

export interface Invitation {
  tokenHash: string;
  companyId: string;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
}

export interface DashboardStore {
  membershipsOf(personId: string): Promise<Membership[]>;
  /** Company, zero balances, the person, the Owner membership and the audit entry, all or nothing. */
  createCompanyWithOwner(company: Company, person: Person, membership: Membership, audit: AuditEntry): Promise<void>;
  /** Company, zero balances, the invitation and its audit entry, all or nothing. */
  createCompanyWithInvitation(company: Company, invitation: Invitation, audit: AuditEntry): Promise<void>;
  findInvitation(tokenHash: string): Promise<Invitation | null>;
  /** Deletes the invitation (only if still there) with the person, membership and audit entry. */
  acceptInvitation(invitation: Invitation, person: Person, membership: Membership, audit: AuditEntry): Promise<void>;
  appendAudit(entries: AuditEntry[]): Promise<void>;
  /** That the person has two-factor sign-in on (two-factor.ts TwoFactorRequirement). */
  markTwoFactorOn(personId: string, since: string): Promise<void>;
  /** The mark removed with the audit entries, all or nothing. */
  markTwoFactorOff(personId: string, audit: AuditEntry[]): Promise<void>;
  auditPage(companyId: string, page: PageRequest): Promise<Page<AuditEntry>>;
  apiKeysOf(companyId: string): Promise<ApiKeyRecord[]>;
  findApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  addApiKey(record: ApiKeyRecord, audit: AuditEntry): Promise<void>;
  /** Writes the key's secret hashes and status only if its secret and status are still `before`'s,
   * so two concurrent rolls cannot both believe they set the secret. NOT_FOUND otherwise. */
  updateApiKey(before: ApiKeyRecord, after: ApiKeyRecord, audit: AuditEntry): Promise<void>;
}

export interface Caller {
  membership: Membership;
  origin: RequestOrigin;
}

export const actorOf = (membership: Membership): AuditActor => ({ personId: membership.personId, email: membership.email });

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (normalised.length > 254 || !EMAIL_PATTERN.test(normalised)) throw validationFailed([{ path: 'email', message: 'must be an email address' }]);
  return normalised;
}

/** Within Cambio's limits on failures (sign-in-limits.ts), which count an address with no account
 * as one with; every company the person belongs to logs the sign-in: each one's Owners see who came in. */
export async function signIn(
  identity: IdentityProvider,
  store: DashboardStore & Pick<EmailVerificationStore, 'getPerson'>,
  attempts: SignInAttempts,
  input: { email: string; password: string },
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens | TwoFactorChallenge> {
  const outcome = await checkedPassword(identity, attempts, input, origin, now);
  if ('twoFactor' in outcome) return outcome;
  // A sign-up whose address was never proven (email-verification.ts): the tokens just issued are dropped.
  await requireVerified(store, outcome.personId, normaliseEmail(input.email)).catch(async (error: unknown) => {
    await identity.signOut(outcome.accessToken);
    throw error;
  });
  await auditSignIn(store, outcome.personId, origin, now);
  return outcome;
}

/** The email and password, within Cambio's limits on failures (sign-in-limits.ts). */
export async function checkedPassword(
  identity: IdentityProvider,
  attempts: SignInAttempts,
  input: { email: string; password: string },
  origin: RequestOrigin,
  now: Date,
): Promise<SessionTokens | TwoFactorChallenge> {
  const email = normaliseEmail(input.email);
  const attempt = attemptKey(email, origin.sourceIp);
  await admitSignIn(attempts, attempt, now);
  const outcome = await identity.signIn(email, input.password);
  await signInSucceeded(attempts, attempt, now);
  return outcome;
}

/** Someone who has just set their password has no second factor yet: a challenge is a bug. */
export async function signInNewPerson(identity: IdentityProvider, email: string, password: string): Promise<SessionTokens> {
  const outcome = await identity.signIn(email, password);
  if ('twoFactor' in outcome) throw new Error('A person who just set their password was asked for a second factor');
  return outcome;
}

/** A sign-in goes in the audit log of every company the person belongs to. */
export async function auditSignIn(store: DashboardStore, personId: string, origin: RequestOrigin, now: Date): Promise<void> {
  const memberships = await store.membershipsOf(personId);
  await store.appendAudit(memberships.map((m) => auditEntry(m.companyId, 'signed_in', actorOf(m), origin, now)));
}

export interface MeView {
  personId: string;
  email: string | null;
  companies: { id: string; name: string; environment: Environment; role: Role }[];
}

export async function me(store: DashboardStore & CompanyStore, personId: string): Promise<MeView> {
  const memberships = await store.membershipsOf(personId);
  const companies = await Promise.all(
    memberships.map(async (m) => {
      const company = await getCompany(store, m.companyId);
      return { id: company.id, name: company.name, environment: company.environment, role: m.role };
    }),
  );
  return { personId, email: memberships[0]?.email ?? null, companies };
}

export async function overview(store: CompanyStore, caller: Caller): Promise<{ company: Company; balance: BalanceView; role: Role }> {
  const [company, balance] = await Promise.all([getCompany(store, caller.membership.companyId), getBalance(store, caller.membership.companyId)]);
  return { company, balance, role: caller.membership.role };
}


export async function auditLog(store: DashboardStore, caller: Caller, page: { limit: number; cursor?: string }) {
  return store.auditPage(caller.membership.companyId, page);
}

// --- Invitations: how a company's first Owner arrives where there is no self sign-up.

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

/** Who acts when an operator's command does (`company:create`, `company:invite`): no person, from the command line. */
export const COMMAND_LINE: { actor: AuditActor; origin: RequestOrigin } = { actor: { personId: null, email: null }, origin: { sourceIp: 'command line', userAgent: null } };

/** `company:create --owner-email`: the company and an invitation whose token is only in the link. */
export async function createCompanyInvitingOwner(
  store: DashboardStore,
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

export async function acceptInvitation(
  identity: IdentityProvider & UnverifiedAccounts,
  store: DashboardStore & EmailVerificationStore,
  input: { token: string; password: string },
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens> {
  const invitation = await store.findInvitation(hashToken(input.token));
  // An unknown, used or expired link are one answer: the link no longer works.
  if (!invitation || invitation.expiresAt <= now.toISOString()) throw notFound('Invitation');
  // The link proves the mailbox: an account that only claimed the address (a sign-up never
  // verified, perhaps with a second factor of a stranger's) is deleted, not asked for its password.
  await releaseUnverifiedAddress(identity, store, invitation.email);
  const personId = await invitedPerson(identity, invitation.email, input.password);
  const person: Person = { personId, email: invitation.email, createdAt: now.toISOString(), emailVerifiedAt: now.toISOString() };
  const membership: Membership = { companyId: invitation.companyId, personId, email: invitation.email, role: invitation.role, createdAt: now.toISOString() };
  await store.acceptInvitation(invitation, person, membership, auditEntry(invitation.companyId, 'invitation.accepted', actorOf(membership), origin, now, invitation.email));
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
