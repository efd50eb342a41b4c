import { send } from './api.ts';
import { EVENT_TYPES } from '../../functions/shared/event-types.ts';

/** Activity's part of the dashboard API (docs/dashboard-api.md, Activity). */
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
] as const;

export type ActivityKind = (typeof ACTIVITY_TABS)[number]['kind'];

export interface ActivityFilter {
  status: string;
  from: string;
  to: string;
  q: string;
}

/** Any record of a list: each tab reads the fields it shows. */
export type ActivityRow = Record<string, unknown> & { id: string; createdAt: string };

export interface Delivery {
  webhookId: string;
  status: string;
  attempts: { round: number; attempt: number; at: string; url: string; statusCode: number | null; durationMs: number; error: string | null }[];
}

const BASE = '/dashboard/api';

function queryString(filter: ActivityFilter, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(name, name === 'q' ? value.trim() : value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const activityApi = {
  list: (companyId: string, kind: ActivityKind, filter: ActivityFilter, cursor?: string) =>
    send<ActivityRow[]>('GET', `/companies/${companyId}/activity/${kind}${queryString(filter, { cursor, limit: '25' })}`),
  detail: (companyId: string, kind: ActivityKind, id: string) => send<ActivityRow & { deliveries?: Delivery[] }>('GET', `/companies/${companyId}/activity/${kind}?id=${encodeURIComponent(id)}`),
  simulatePayment: (companyId: string, depositId: string, amount: string) => send<{ txHash: string }>('POST', `/companies/${companyId}/simulated-payments`, { depositId, amount }),
  sendWithdrawal: (companyId: string, withdrawal: { address: string; amount: string; reference: string; password: string; code?: string }) => send<ActivityRow>('POST', `/companies/${companyId}/withdrawals`, withdrawal),

  /** `Export CSV`'s address: the server streams the whole file (functions/handlers/dashboard/export-activity.ts),
   * so the browser saves it as it arrives instead of the page holding it. */
  exportUrl: (companyId: string, kind: ActivityKind, filter: ActivityFilter) => `${BASE}/companies/${companyId}/activity/${kind}/export${queryString(filter)}`,
};
