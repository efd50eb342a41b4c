import { auditLog } from '#functions/companies/audit-log';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { dashboardRoute } from '#http/dashboard-route';
import { pageResult } from '#http/envelope';
import { validate } from '#http/validation';
import { auditLogQuery } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/list-audit-log');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const auditLogStore = new DynamoAuditLogStore(db, tableName);

export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, query }) =>
  pageResult(await auditLog(auditLogStore, caller.membership.companyId, validate(auditLogQuery, query))),
);
