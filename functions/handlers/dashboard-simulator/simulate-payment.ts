import { simulatePayment } from '#functions/companies/activity';
import type { NetworkName } from '#functions/networks/names';
import { sandboxOf } from '#functions/networks/sandbox-registry';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { simulatePaymentBody } from '../dashboard/schemas.ts';

/**
 * The dashboard's `Simulate payment` (DASHBOARD_SIMULATOR in functions/routes.ts): a function of its
 * own in AWS, apart from the dashboard API's one Lambda, because it carries every network's sandbox
 * chain; this folder is not the one that Lambda bundles whole.
 */
const settings = functionSettings('dashboard-simulator/simulate-payment');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);
const auditLog = new DynamoAuditLogStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);
const payers = new Map<NetworkName, ReturnType<ReturnType<typeof sandboxOf>['payer']>>();
/** Each network's payer, made the first time a deposit on it is paid. */
const payerOn = (network: NetworkName) => {
  if (!payers.has(network)) payers.set(network, sandboxOf(network).payer(db, tableName, settings));
  return payers.get(network)!;
};

export const handler = dashboardRoute({ body: simulatePaymentBody, access: 'simulate', memberships }, async ({ caller, body }) => ({
  status: 202,
  data: await simulatePayment({ activity, companies, auditLog, payerOn }, caller, body.depositId, body.amount),
}));
