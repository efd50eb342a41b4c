import { listActivity } from '#domain/activity';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityKindPath, activityListQuery } from './schemas.ts';

const { dashboard, activity } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const { limit, cursor, ...filter } = validate(activityListQuery, query);
  const { items, nextCursor } = await listActivity(activity, caller, kind, filter, { limit, cursor });
  return { data: items, pagination: { nextCursor } };
});
