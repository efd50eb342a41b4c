import type { ActivityFilter, ActivityKind } from '../api/types.ts';
import { EVENT_TYPES } from '../../../functions/shared/event-types.ts';

/** Activity's tabs, in order, with what each filters by. */
export const ACTIVITY_TABS = [
  { kind: 'deposits', label: 'Deposits', statusLabel: 'Status', statuses: ['awaiting_payment', 'confirming', 'completed', 'expired'] },
  { kind: 'withdrawals', label: 'Withdrawals', statusLabel: 'Status', statuses: ['pending', 'processing', 'completed', 'failed'] },
  { kind: 'conversions', label: 'Conversions', statusLabel: 'Status', statuses: ['completed'] },
  {
    kind: 'events',
    label: 'Events',
    statusLabel: 'Type',
    statuses: EVENT_TYPES,
  },
] as const satisfies readonly { kind: ActivityKind; label: string; statusLabel: string; statuses: readonly string[] }[];

export const EMPTY_FILTER: ActivityFilter = { status: '', from: '', to: '', q: '' };

/** `/activity`, `/activity/<kind>` or `/activity/<kind>/<id>`; an unknown kind is the first tab. */
export function activityRoute(route: string): { kind: ActivityKind; id: string | null } {
  const [, , kind, id] = route.split('/');
  const tab = ACTIVITY_TABS.find((t) => t.kind === kind) ?? ACTIVITY_TABS[0];
  return { kind: tab.kind, id: id ? decodeURIComponent(id) : null };
}
