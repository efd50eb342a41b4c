import { activityCsv } from '#functions/companies/activity';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardDownload } from '#http/dashboard-download';
import { validate } from '#http/validation';
import { activityExportQuery, activityKindPath } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/export-activity'));
const memberships = new DynamoMembershipStore(db, tableName);
const activity = new DynamoActivityStore(db, tableName);

/** `Export CSV`: what the filter shows, streamed as it is read (functions/http/dashboard-download.ts). */
export const handler = dashboardDownload({ access: 'read', memberships }, async ({ caller, query, pathParameters }) => {
  const { kind } = validate(activityKindPath, pathParameters);
  const filter = validate(activityExportQuery, query);
  return {
    filename: `cambio-${kind}-${new Date().toISOString().slice(0, 10)}.csv`,
    contentType: 'text/csv; charset=utf-8',
    pieces: activityCsv(activity, caller, kind, filter),
  };
});
