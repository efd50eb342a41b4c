import { API_BASE, send } from './client.ts';
import type { Overview } from './types.ts';

/** Overview: the company, its balances and its statement. */
export const overviewApi = {
  overview: (companyId: string) => send<Overview>('GET', `/companies/${companyId}`),
  /** `Download statement`'s address: streamed by the server (functions/handlers/dashboard/download-statement.ts), saved by the browser as it arrives. */
  statementUrl: (companyId: string, period: { from: string; to: string }) => `${API_BASE}/companies/${companyId}/statement?${new URLSearchParams(period).toString()}`,
};
