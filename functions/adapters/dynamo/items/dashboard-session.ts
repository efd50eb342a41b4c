import type { DashboardSession } from '#functions/people/dashboard-sessions';
import { toBigInt } from '../client.ts';
import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `DashboardSession` (functions/people/dashboard-sessions.ts): a partition
 * of its own per session, keyed by the SHA-256 of the cookie's value (never the value itself), read
 * by the session authorizer on every request. Cognito's tokens are in `sealedTokens` only, sealed
 * for this session, so the table's export and backups hold no token in the clear. `ttl` removes it
 * once it has expired.
 */
export const dashboardSessionItem = {
  ...globalRecord('DashboardSession', 'DASHBOARD_SESSION', 'SESSION'),
  toItem: (key: string, session: DashboardSession): Item => ({
    ...dashboardSessionItem.head(key),
    personId: session.personId,
    sessionId: session.sessionId,
    authTime: session.authTime,
    openedAt: session.openedAt,
    expiresAt: session.expiresAt,
    sealedTokens: session.sealedTokens,
    accessExpiresAt: session.accessExpiresAt,
    ttl: session.expiresAt,
  }),
  /** Null for an item written before the tokens were sealed (Cognito's `accessToken` and
   * `refreshToken` in the clear): such a session is treated as signed out, its person signs in
   * again, and `ttl` removes the item within the session's 30 days, or a sign-out at once. */
  fromItem: (item: Item): DashboardSession | null =>
    typeof item.sealedTokens !== 'string'
      ? null
      : {
          personId: item.personId as string,
          sessionId: item.sessionId as string,
          authTime: Number(toBigInt(item.authTime)),
          openedAt: Number(toBigInt(item.openedAt)),
          expiresAt: Number(toBigInt(item.expiresAt)),
          sealedTokens: item.sealedTokens,
          accessExpiresAt: Number(toBigInt(item.accessExpiresAt)),
        },
};
