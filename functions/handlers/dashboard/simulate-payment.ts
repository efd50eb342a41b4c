import { simulatePayment } from '#functions/companies/activity';
import { soleNetworkName } from '#functions/networks/names';
import { sandboxOf } from '#functions/networks/sandbox-registry';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { simulatePaymentBody } from './schemas.ts';

const settings = functionSettings('dashboard/simulate-payment');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);
const auditLog = new DynamoAuditLogStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);
const payer = sandboxOf(soleNetworkName()).payer(db, tableName, settings);

export const handler = dashboardRoute({ body: simulatePaymentBody, access: 'simulate', memberships }, async ({ caller, body }) => ({
  status: 202,
  data: await simulatePayment({ activity, companies, auditLog, payer }, caller, body.depositId, body.amount),
}));
