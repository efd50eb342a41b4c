import { API_BASE, send } from './client.ts';
import type { ActivityFilter, ActivityKind, ActivityRow, Delivery, PaymentSimulated, SimulatePaymentRequest } from './types.ts';

/** Activity's part of the dashboard API (docs/dashboard-api.md, Activity). */
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
  simulatePayment: (companyId: string, depositId: string, amount: string) =>
    send<PaymentSimulated>('POST', `/companies/${companyId}/simulated-payments`, { depositId, amount } satisfies SimulatePaymentRequest),

  /** `Export CSV`'s address: the server streams the whole file (functions/handlers/dashboard/export-activity.ts),
   * so the browser saves it as it arrives instead of the page holding it. */
  exportUrl: (companyId: string, kind: ActivityKind, filter: ActivityFilter) => `${API_BASE}/companies/${companyId}/activity/${kind}/export${queryString(filter)}`,
};
