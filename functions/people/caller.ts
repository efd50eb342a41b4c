import type { AuditActor, RequestOrigin } from '../companies/audit-log.ts';
import type { Membership } from './team.ts';

/** Who acts in a company call of the dashboard: a member, their role already checked
 * (functions/http/dashboard-route.ts), from where. */
export interface Caller {
  membership: Membership;
  origin: RequestOrigin;
}

export const actorOf = (membership: Membership): AuditActor => ({ personId: membership.personId, email: membership.email });

/** Who acts when an operator's command does (`company:create`, `company:invite`): no person, from
 * the command line, run by `operator` (`company:invite (alice@ops-laptop)`, as `company:limits`
 * records it: ops/screening-target.ts `operator()`); null when no one is named (a test's own call). */
export const commandLine = (operator: string | null = null): { actor: AuditActor; origin: RequestOrigin } => ({
  actor: { personId: null, email: null },
  origin: { sourceIp: 'command line', userAgent: operator },
});
