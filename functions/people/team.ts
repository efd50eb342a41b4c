import { ApiError, validationFailed } from '../shared/errors.ts';

/**
 * A company's people and what each may do (../shared/dashboard.md, Team). A person is a Cognito
 * user (`personId` is its `sub`); a membership ties one person to one company with one role. The
 * dashboard API checks the role on every call, whatever the page shows.
 */
export const ROLES = ['Owner', 'Admin', 'Developer', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface Person {
  personId: string;
  email: string;
  createdAt: string;
  /** When the person proved the address is theirs (email-verification.ts): null while a sign-up
   * waits for its link, which keeps them from signing in; absent counts as verified. */
  emailVerifiedAt?: string | null;
}

export interface Membership {
  companyId: string;
  personId: string;
  email: string;
  role: Role;
  createdAt: string;
}

/** What a role may do. A Viewer sees everything and changes nothing; a Developer manages keys and
 * webhooks but not the team. Only an Owner makes, demotes or removes an Owner (team-members.ts). */
/** `simulate`: the sandbox simulator's payments (a Viewer changes nothing, not even sandbox money).
 * `manageAddresses`: the withdrawal allowlist, kept from Developers, who hold the API keys, so one
 * leaked key and the list it is checked against are never in the same hands. */
/** `sendWithdrawals`: a withdrawal made in the dashboard (Activity → Withdrawals → New withdrawal).
 * `manageSecurity`: whether the company requires two-factor sign-in of every member; the Owners'. */
export type Permission = 'read' | 'manageKeys' | 'manageWebhooks' | 'manageTeam' | 'manageAddresses' | 'sendWithdrawals' | 'simulate' | 'manageSecurity';

const GRANTS: Record<Role, readonly Permission[]> = {
  Owner: ['read', 'manageKeys', 'manageWebhooks', 'manageTeam', 'manageAddresses', 'sendWithdrawals', 'simulate', 'manageSecurity'],
  Admin: ['read', 'manageKeys', 'manageWebhooks', 'manageTeam', 'manageAddresses', 'sendWithdrawals', 'simulate'],
  Developer: ['read', 'manageKeys', 'manageWebhooks', 'simulate'],
  Viewer: ['read'],
};

export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** Whether giving `to` to someone who holds `from` (null: no role yet, an invitation) hands them more
 * than reading: the roles nest (Owner ⊃ Admin ⊃ Developer ⊃ Viewer), so a raise, or an invitation to
 * any role but Viewer. */
export function raises(from: Role | null, to: Role): boolean {
  return GRANTS[to].some((permission) => permission !== 'read' && !(from && may(from, permission)));
}

/** A person asking about a company they do not belong to learns nothing: the company is "not
 * found", as another company's id is on /v1. A member whose role falls short is told so. */
export function requirePermission(membership: Membership | null, permission: Permission): Membership {
  if (!membership) throw new ApiError('NOT_FOUND', 'Company not found');
  if (!may(membership.role, permission)) throw new ApiError('FORBIDDEN', `A ${membership.role} may not do this`);
  return membership;
}

/** Why a member of a company that requires two-factor sign-in, who has not turned it on, is refused. */
export const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED';

/** What every company call checks, in one read: the person's membership, and the company's
 * two-factor rule against whether the person has two-factor sign-in on (two-factor.ts). */
export interface MemberStanding {
  membership: Membership | null;
  twoFactorRequired: boolean;
  twoFactorOn: boolean;
}

/**
 * The membership a company call acts under. A non-member learns nothing (404, as above), not even
 * the company's rule; a member without two-factor sign-in in a company that requires it is refused
 * everything there with 403 `reason: TWO_FACTOR_REQUIRED` until they turn it on (Account); then the role.
 */
export function requireStanding(standing: MemberStanding, permission: Permission): Membership {
  if (standing.membership && standing.twoFactorRequired && !standing.twoFactorOn) {
    throw new ApiError('FORBIDDEN', 'This company requires two-factor sign-in: turn it on under Account, or sign in again with your authenticator code', {
      reason: TWO_FACTOR_REQUIRED,
    });
  }
  return requirePermission(standing.membership, permission);
}

/** Emails compare case-insensitively, as Cognito's do with the pool's case-insensitive usernames. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address normalised, or VALIDATION_FAILED on `email`. */
export function checkEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (normalised.length > 254 || !EMAIL_PATTERN.test(normalised)) throw validationFailed([{ path: 'email', message: 'must be an email address' }]);
  return normalised;
}

/** The user pool's password policy (lib/dashboard.ts gives it to Cognito; the local emulator
 * enforces the same), said once so the sign-up page can tell people before they submit. */
export const PASSWORD_POLICY = { minLength: 10, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true } as const;

/** What a password lacks under PASSWORD_POLICY, as Cognito words it after "needs"; empty when it passes. */
export function passwordProblems(password: string): string[] {
  return [
    password.length < PASSWORD_POLICY.minLength && `at least ${PASSWORD_POLICY.minLength} characters`,
    PASSWORD_POLICY.requireLowercase && !/[a-z]/.test(password) && 'a lowercase letter',
    PASSWORD_POLICY.requireUppercase && !/[A-Z]/.test(password) && 'an uppercase letter',
    PASSWORD_POLICY.requireDigits && !/[0-9]/.test(password) && 'a number',
    PASSWORD_POLICY.requireSymbols && !/[^A-Za-z0-9]/.test(password) && 'a symbol',
  ].filter((problem): problem is string => typeof problem === 'string');
}
