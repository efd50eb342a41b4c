import type { AuditActor, RequestOrigin } from '../companies/audit-log.ts';
import type { Membership } from './team.ts';

/** Who acts in a company call of the dashboard: a member, their role already checked
 * (functions/http/dashboard-route.ts), from where. */
export interface Caller {
  membership: Membership;
  origin: RequestOrigin;
}

export const actorOf = (membership: Membership): AuditActor => ({ personId: membership.personId, email: membership.email });

/** Who acts when an operator's command does (`company:create`, `company:invite`): no person, from the command line. */
export const COMMAND_LINE: { actor: AuditActor; origin: RequestOrigin } = { actor: { personId: null, email: null }, origin: { sourceIp: 'command line', userAgent: null } };
