import type { DashboardSession } from '#functions/people/dashboard-sessions';
import { toBigInt } from '../client.ts';
import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `DashboardSession` (functions/people/dashboard-sessions.ts): a partition
 * of its own per session, keyed by the SHA-256 of the cookie's value (never the value itself), read
 * by the session authorizer on every request. `ttl` removes it once it has expired.
 */
export const dashboardSessionItem = {
  ...globalRecord('DashboardSession', 'DASHBOARD_SESSION', 'SESSION'),
  toItem: (key: string, session: DashboardSession): Item => ({
    ...dashboardSessionItem.head(key),
    ...session,
    ttl: session.expiresAt,
  }),
  fromItem: (item: Item): DashboardSession => ({
    personId: item.personId as string,
    sessionId: item.sessionId as string,
    authTime: Number(toBigInt(item.authTime)),
    openedAt: Number(toBigInt(item.openedAt)),
    expiresAt: Number(toBigInt(item.expiresAt)),
    accessToken: item.accessToken as string,
    accessExpiresAt: Number(toBigInt(item.accessExpiresAt)),
    refreshToken: (item.refreshToken as string | null) ?? null,
  }),
};
