import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DashboardSession, DashboardSessionStore } from '#functions/people/dashboard-sessions';
import { dashboardSessionItem } from './items/dashboard-session.ts';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** The dashboard's sessions (items/dashboard-session.ts), by the hash of their cookie: what they
 * store of Cognito's tokens is already sealed (functions/people/dashboard-sessions.ts). */
export class DynamoDashboardSessions extends TableStore implements DashboardSessionStore {
  async save(key: string, session: DashboardSession): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: dashboardSessionItem.toItem(key, session) }));
  }

  async renewAccess(key: string, sealedTokens: string, accessExpiresAt: number): Promise<void> {
    await this.updateIf(dashboardSessionItem.key(key), 'SET sealedTokens = :tokens, accessExpiresAt = :expires REMOVE accessToken, refreshToken', 'attribute_exists(PK)', {
      values: { ':tokens': sealedTokens, ':expires': accessExpiresAt },
    });
  }

  async find(key: string): Promise<DashboardSession | null> {
    const item = await readItem(this.db, this.tableName, dashboardSessionItem.key(key));
    return item ? dashboardSessionItem.fromItem(item) : null;
  }

  async remove(key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: dashboardSessionItem.key(key) }));
  }
}
