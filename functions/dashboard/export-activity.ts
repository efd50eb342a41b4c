import { exportActivity } from '#domain/activity';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityExportQuery, activityKindPath } from './schemas.ts';

const { dashboard, activity } = dynamoFromEnv();

/** `Export CSV`, one chunk per request (docs/dashboard-api.md, Activity): the next chunk's cursor
 * is in `X-Next-Cursor`, absent on the last. */
export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const { cursor, ...filter } = validate(activityExportQuery, query);
  const { csv, nextCursor } = await exportActivity(activity, caller, kind, filter, cursor);
  return { data: null, raw: { contentType: 'text/csv; charset=utf-8', body: csv, headers: nextCursor ? { 'X-Next-Cursor': nextCursor } : undefined } };
});
