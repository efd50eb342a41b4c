import { activityDetail } from '#domain/activity';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityKindPath } from './schemas.ts';

const { dashboard, activity } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, pathParameters }) => ({
  data: await activityDetail(activity, caller, validate(activityKindPath, pathParameters).kind, pathParameters.id!),
}));
