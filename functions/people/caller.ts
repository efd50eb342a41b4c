import type { AuditActor, RequestOrigin } from '../companies/audit-log.ts';
import type { Membership } from './team.ts';

/** Who acts in a company call of the dashboard: a member, their role already checked
 * (functions/http/dashboard-route.ts), from where. */
export interface Caller {
  membership: Membership;
  origin: RequestOrigin;
}

export const actorOf = (membership: Membership): AuditActor => ({ personId: membership.personId, email: membership.email });

let commandLineOperator: string | null = null;

/**
 * Names who runs this process's operator command, as `company:limits` records it
 * (`company:invite (alice@ops-laptop)`, ops/screening-target.ts `operator()`): what COMMAND_LINE's
 * origin records as its userAgent from then on. Only an `ops/` command calls it, once, before acting.
 */
export function nameCommandLineOperator(userAgent: string): void {
  commandLineOperator = userAgent;
}

/** Who acts when an operator's command does (`company:create`, `company:invite`): no person, from
 * the command line, by the operator the command named (nameCommandLineOperator; null if none did). */
export const COMMAND_LINE: { actor: AuditActor; origin: RequestOrigin } = {
  actor: { personId: null, email: null },
  origin: {
    sourceIp: 'command line',
    get userAgent() {
      return commandLineOperator;
    },
  },
};
