import { auditLog } from '#domain/dashboard';
import { dynamoFromEnv } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { validate } from '#http/validation';
import { auditLogQuery } from './schemas.ts';

const { dashboard } = dynamoFromEnv();

export const handler = dashboardRoute({ access: 'read', memberships: dashboard }, async ({ caller, query }) => {
  const { entries, nextCursor } = await auditLog(dashboard, caller, validate(auditLogQuery, query));
  return { data: entries, pagination: { nextCursor } };
});
