import type { ActivityFilter, ActivityKind, HoldReason } from '../api/types.ts';
import { EVENT_TYPES } from '../../../functions/shared/event-types.ts';
import { NETWORK_NAMES, type NetworkName } from '../../../functions/networks/names.ts';
import { explorerTransactionUrl, NETWORK_DISPLAY } from '../../../functions/networks/display.ts';

/** Activity's tabs, in order, with what each filters by: deposits and withdrawals by network too. */
export const ACTIVITY_TABS = [
  { kind: 'deposits', label: 'Deposits', statusLabel: 'Status', statuses: ['awaiting_payment', 'confirming', 'completed', 'expired', 'held'], onNetworks: true },
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

/** Why a `held` deposit is not credited, for people (functions/deposits/deposits.ts HoldReason): the
 * status a list shows, the reason and what happens next on the deposit's page. */
export const HOLD_REASONS: Record<HoldReason, { status: string; reason: string; explanation: string }> = {
  address_frozen: {
    status: 'Held: address frozen by the issuer',
    reason: 'Address frozen by the issuer',
    explanation: "The token's issuer froze this deposit's address. The funds are recorded but not in the available balance; they are credited once the issuer unfreezes the address.",
  },
  sender_sanctioned: {
    status: 'Held: sender on the sanctions list',
    reason: 'Sender on the sanctions list',
    explanation: 'The paying address is on the sanctions screening list. The funds are recorded but not in the available balance; they are credited only if Cambio releases them after review.',
  },
};

/** A hold's words, or null for a record without a reason the app knows. */
export const holdReasonWords = (reason: unknown) => (typeof reason === 'string' && Object.hasOwn(HOLD_REASONS, reason) ? HOLD_REASONS[reason as HoldReason] : null);

/** A deposit's status for people: a held one says why, in words. */
export const depositStatusText = (record: Record<string, unknown>): string =>
  record.status === 'held' ? (holdReasonWords(record.holdReason)?.status ?? 'Held') : String(record.status);

/** `/activity`, `/activity/<kind>` or `/activity/<kind>/<id>`; an unknown kind is the first tab. */
export function activityRoute(route: string): { kind: ActivityKind; id: string | null } {
  const [, , kind, id] = route.split('/');
  const tab = ACTIVITY_TABS.find((t) => t.kind === kind) ?? ACTIVITY_TABS[0];
  return { kind: tab.kind, id: id ? decodeURIComponent(id) : null };
}
