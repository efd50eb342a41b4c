import { listActivity } from '#domain/activity';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityKindPath, activityListQuery } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/list-activity'));
const dashboard = new DynamoDashboardStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const { limit, cursor, ...filter } = validate(activityListQuery, query);
  const { items, nextCursor } = await listActivity(activity, caller, kind, filter, { limit, cursor });
  return { data: items, pagination: { nextCursor } };
});
