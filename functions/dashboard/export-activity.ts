import { exportActivity } from '#domain/activity';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityExportQuery, activityKindPath } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/export-activity'));
const dashboard = new DynamoDashboardStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);

/** `Export CSV`, one chunk per request (docs/dashboard-api.md, Activity): the next chunk's cursor
 * is in `X-Next-Cursor`, absent on the last. */
export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const { cursor, ...filter } = validate(activityExportQuery, query);
  const { csv, nextCursor } = await exportActivity(activity, caller, kind, filter, cursor);
  return { data: null, raw: { contentType: 'text/csv; charset=utf-8', body: csv, headers: nextCursor ? { 'X-Next-Cursor': nextCursor } : undefined } };
});
