import type { Log } from '#functions/shared/log';
import type { KeyDeps } from '#functions/api-keys/dashboard-api-keys';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dynamoFrom } from '#adapters/runtime';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that issue or widen a key share (create, roll, allowed IPs), made once per cold
 * start: the keys and the audit log, the team to mail, and the stage's mailer. */
// The three have the same slice (functions/settings/functions.ts: the dashboard's and mail).
const settings = functionSettings('dashboard/create-api-key');
const { db, tableName } = dynamoFrom(settings);
const mailer = mailerFrom(settings);
const members = new DynamoTeamStore(db, tableName);

export const dashboard = new DynamoDashboardStore(db, tableName);
export const keys = (log: Log): KeyDeps => ({ store: dashboard, members, mailer, log });
