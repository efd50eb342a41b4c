import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sessionTokenSealerFrom } from '#adapters/dashboard-session-sealer';
import { dashboardSessionItem } from '#adapters/dynamo/items/dashboard-session';
import { DynamoDashboardSessions } from '#adapters/dynamo/dashboard-session-store';
import { openTokens, sessionKeyOf, type StoredTokens } from '#functions/people/dashboard-sessions';
import { parseSettings } from '#functions/settings/schema';
import { SLICES } from '#functions/settings/functions';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';

/** The local stage's sealer of sessions' tokens, as the dashboard's routes build it. */
export const localSessionSealer = () => sessionTokenSealerFrom(parseSettings(SLICES.webhookSealer, { ...STAGES.local.functionEnvironment, STAGE: 'local' }));

/** The stored item of the session a cookie names, as DynamoDB holds it (what the export and backups copy). */
export async function rawSessionItem(db: DynamoDBDocumentClient, runtime: LocalRuntime, cookieValue: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: dashboardSessionItem.key(sessionKeyOf(cookieValue)), ConsistentRead: true }));
  return Item;
}

/** The Cognito tokens a session holds, opened as the routes that act as the person open them. */
export async function sessionTokens(db: DynamoDBDocumentClient, runtime: LocalRuntime, cookieValue: string): Promise<StoredTokens> {
  const session = await new DynamoDashboardSessions(db, runtime.tableName).find(sessionKeyOf(cookieValue));
  if (!session) throw new Error('no such session');
  return openTokens(localSessionSealer(), sessionKeyOf(cookieValue), session);
}
