import { statementCsv } from '#functions/companies/statement';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoStatementStore } from '#adapters/dynamo/statement-store';
import { dynamoFrom } from '#adapters/runtime';
import { functionSettings } from '#functions/settings/functions';
import { dashboardDownload } from '#http/dashboard-download';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/download-statement'));
const memberships = new DynamoMembershipStore(db, tableName);
const statements = new DynamoStatementStore(db, tableName);

/** Overview's `Download statement`: the balances' changes between two UTC days, streamed as read. */
export const handler = dashboardDownload({ access: 'read', memberships }, async ({ caller, query }) => ({
  filename: `cambio-statement-${query.from ?? ''}-to-${query.to ?? ''}.csv`.replace(/[^\w.-]/g, '_'),
  contentType: 'text/csv; charset=utf-8',
  pieces: statementCsv(statements, caller, query),
}));
