import { activityDetail } from '#domain/activity';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { activityKindPath } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/get-activity'));
const dashboard = new DynamoDashboardStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, pathParameters }) => ({
  data: await activityDetail(activity, caller, validate(activityKindPath, pathParameters).kind, pathParameters.id!),
}));
