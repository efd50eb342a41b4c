import { newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';

/**
 * The audit log (../shared/dashboard.md, Audit log): who did what, when and from which address.
 * Entries are only ever appended (a conditional put of a new id); nothing updates or deletes them.
 * An entry about a change is written in the same transaction as the change, so neither exists
 * without the other.
 */
export type AuditAction =
  | 'signed_in'
  | 'signed_up'
  | 'email.verified'
  | 'two_factor.enabled'
  | 'two_factor.replaced'
  | 'two_factor.disabled'
  | 'two_factor.reset'
  | 'two_factor.required'
  | 'two_factor.not_required'
  | 'password.reset'
  | 'password.changed'
  | 'invitation.created'
  | 'invitation.accepted'
  | 'invitation.revoked'
  | 'invitation.resent'
  | 'api_key.created'
  | 'api_key.rolled'
  | 'api_key.revoked'
  | 'api_key.allowed_ips_changed'
  | 'member.role_changed'
  | 'member.removed'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.enabled'
  | 'webhook.disabled'
  | 'webhook.deleted'
  | 'webhook.secret_rolled'
  | 'webhook.test_sent'
  | 'webhook.resent'
  | 'deposit.payment_simulated'
  | 'deposit.released'
  | 'deposit.kept_held'
  | 'company.rate_limit_changed'
  | 'withdrawal.sent'
  | 'withdrawal_limit.changed'
  | 'withdrawal_address.added'
  | 'withdrawal_address.removed'
  | 'withdrawal_allowlist.enabled'
  | 'withdrawal_allowlist.disabled';

export interface AuditActor {
  /** A person's id, or null for the command line (`company:create`). */
  personId: string | null;
  email: string | null;
}

export interface RequestOrigin {
  sourceIp: string;
  userAgent: string | null;
}

export interface AuditEntry {
  id: string;
  companyId: string;
  action: AuditAction;
  actor: AuditActor;
  /** What was acted on: a key id, an email; null for a sign-in. */
  target: string | null;
  /** Details that say what changed, e.g. a roll's grace period. Never a secret. */
  details: Record<string, string> | null;
  sourceIp: string;
  userAgent: string | null;
  createdAt: string;
}

export function auditEntry(
  companyId: string,
  action: AuditAction,
  actor: AuditActor,
  origin: RequestOrigin,
  now: Date,
  target: string | null = null,
  details: Record<string, string> | null = null,
): AuditEntry {
  return {
    id: newId('auditEntry', now.getTime()),
    companyId,
    action,
    actor,
    target,
    details,
    sourceIp: origin.sourceIp,
    // Bounded: the header is the caller's to fill.
    userAgent: origin.userAgent?.slice(0, 256) ?? null,
    createdAt: now.toISOString(),
  };
}

export interface AuditLogStore {
  /** Entries about no change of their own (a sign-in), each written alone. */
  appendAudit(entries: AuditEntry[]): Promise<void>;
  /** Newest first. */
  auditPage(companyId: string, page: PageRequest): Promise<Page<AuditEntry>>;
}

/** The Audit log page: the company's entries, newest first. */
export async function auditLog(store: Pick<AuditLogStore, 'auditPage'>, companyId: string, page: { limit: number; cursor?: string }): Promise<Page<AuditEntry>> {
  return store.auditPage(companyId, page);
}
