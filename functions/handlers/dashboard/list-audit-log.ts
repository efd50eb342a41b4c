import { auditLog } from '#functions/people/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { dashboardRoute } from '#http/dashboard-route';
import { pageResult } from '#http/envelope';
import { validate } from '#http/validation';
import { auditLogQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/list-audit-log');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query }) =>
  pageResult(await auditLog(dashboard, caller, validate(auditLogQuery, query))),
);
