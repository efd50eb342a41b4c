import { ApiError } from './errors.ts';

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
/** `sendWithdrawals`: a withdrawal made in the dashboard (Activity → Withdrawals → New withdrawal). */
export type Permission = 'read' | 'manageKeys' | 'manageWebhooks' | 'manageTeam' | 'manageAddresses' | 'sendWithdrawals' | 'simulate';

const GRANTS: Record<Role, readonly Permission[]> = {
  Owner: ['read', 'manageKeys', 'manageWebhooks', 'manageTeam', 'manageAddresses', 'sendWithdrawals', 'simulate'],
  Admin: ['read', 'manageKeys', 'manageWebhooks', 'manageTeam', 'manageAddresses', 'sendWithdrawals', 'simulate'],
  Developer: ['read', 'manageKeys', 'manageWebhooks', 'simulate'],
  Viewer: ['read'],
};

export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** A person asking about a company they do not belong to learns nothing: the company is "not
 * found", as another company's id is on /v1. A member whose role falls short is told so. */
export function requirePermission(membership: Membership | null, permission: Permission): Membership {
  if (!membership) throw new ApiError('NOT_FOUND', 'Company not found');
  if (!may(membership.role, permission)) throw new ApiError('FORBIDDEN', `A ${membership.role} may not do this`);
  return membership;
}

/** Emails compare case-insensitively, as Cognito's do with the pool's case-insensitive usernames. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user pool's password policy (lib/dashboard.ts gives it to Cognito; the local emulator
 * enforces the same), said once so the sign-up page can tell people before they submit. */
export const PASSWORD_POLICY = { minLength: 10, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true } as const;
