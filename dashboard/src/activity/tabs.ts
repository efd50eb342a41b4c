import type { ActivityFilter, ActivityKind } from '../api/types.ts';
import { EVENT_TYPES } from '../../../functions/shared/event-types.ts';
import { NETWORK_NAMES, type NetworkName } from '../../../functions/networks/names.ts';
import { explorerTransactionUrl, NETWORK_DISPLAY } from '../../../functions/networks/display.ts';

/** Activity's tabs, in order, with what each filters by: deposits and withdrawals by network too. */
export const ACTIVITY_TABS = [
  { kind: 'deposits', label: 'Deposits', statusLabel: 'Status', statuses: ['awaiting_payment', 'confirming', 'completed', 'expired'], onNetworks: true },
  { kind: 'withdrawals', label: 'Withdrawals', statusLabel: 'Status', statuses: ['pending', 'processing', 'completed', 'failed'], onNetworks: true },
  { kind: 'conversions', label: 'Conversions', statusLabel: 'Status', statuses: ['completed'], onNetworks: false },
  {
    kind: 'events',
    label: 'Events',
    statusLabel: 'Type',
    statuses: EVENT_TYPES,
    onNetworks: false,
  },
] as const satisfies readonly { kind: ActivityKind; label: string; statusLabel: string; statuses: readonly string[]; onNetworks: boolean }[];

export const EMPTY_FILTER: ActivityFilter = { status: '', network: '', from: '', to: '', q: '' };

/** The Network filter's options: each network's name and title (`ethereum`, `Ethereum`). */
export const NETWORK_OPTIONS = NETWORK_NAMES.map((name) => ({ name, title: NETWORK_DISPLAY[name].title }));

const isNetworkName = (name: unknown): name is NetworkName => (NETWORK_NAMES as readonly unknown[]).includes(name);

/** A record's network for people: its title, or the name as sent should the app not know it yet. */
export const networkTitle = (name: unknown): string => (isNetworkName(name) ? NETWORK_DISPLAY[name].title : String(name ?? '—'));

/** A transaction's page on its network's explorer, or null for a network the app does not know. */
export const explorerUrl = (network: unknown, txHash: string): string | null => (isNetworkName(network) ? explorerTransactionUrl(network, txHash) : null);

/** `/activity`, `/activity/<kind>` or `/activity/<kind>/<id>`; an unknown kind is the first tab. */
export function activityRoute(route: string): { kind: ActivityKind; id: string | null } {
  const [, , kind, id] = route.split('/');
  const tab = ACTIVITY_TABS.find((t) => t.kind === kind) ?? ACTIVITY_TABS[0];
  return { kind: tab.kind, id: id ? decodeURIComponent(id) : null };
}
