import { activityDetail, listActivity } from '#functions/companies/activity';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { pageResult } from '#http/envelope';
import { validate } from '#http/validation';
import { activityKindPath, activityQuery } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/activity'));
const memberships = new DynamoMembershipStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);

/**
 * Activity's one read route, so the stack stays under CloudFormation's 500 resources (one Lambda
 * and its role, logs and alarms per route): `?id=` is a record's detail; otherwise a page of the
 * list. `Export CSV` is a route of its own, streamed (./export-activity.ts).
 */
export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const { id, limit, cursor, ...filter } = validate(activityQuery, query);
  if (id !== undefined) return { data: await activityDetail(activity, caller, kind, id) };
  return pageResult(await listActivity(activity, caller, kind, filter, { limit, cursor }));
});
