import { createDocumentClient } from './dynamo/client.ts';
import { DynamoSignOuts } from './dynamo/sign-out-store.ts';
import { DynamoDashboardSessions } from './dynamo/dashboard-session-store.ts';
import type { SliceSettings } from '#functions/settings/functions';

/**
 * The table a Lambda uses, from its settings; each handler builds the stores it needs on it, so a
 * bundle carries those stores alone. `DYNAMODB_ENDPOINT` is set only by the local runtime and
 * tests (DynamoDB Local).
 */
export function dynamoFrom(settings: SliceSettings<'table'>) {
  return { db: createDocumentClient(settings.DYNAMODB_ENDPOINT), tableName: settings.TABLE_NAME };
}

/** The dashboard's sessions and the sign-outs that end them, for the session authorizer, which needs nothing else of the table. */
export function sessionRecordsFrom(settings: SliceSettings<'table'>): { sessions: DynamoDashboardSessions; signOuts: DynamoSignOuts } {
  const db = createDocumentClient(settings.DYNAMODB_ENDPOINT);
  return { sessions: new DynamoDashboardSessions(db, settings.TABLE_NAME), signOuts: new DynamoSignOuts(db, settings.TABLE_NAME) };
}
