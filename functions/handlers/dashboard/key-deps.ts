import type { Log } from '#functions/shared/log';
import type { KeyDeps } from '#functions/api-keys/key-management';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { reauthenticationFrom } from '#adapters/cognito/reauthentication';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dynamoFrom } from '#adapters/runtime';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that change a key share (create, roll, allowed IPs, revoke), made once per cold
 * start: the keys and the audit log, the team to mail, the stage's mailer, and the user pool that
 * checks the password a full-access key's issue asks. */
// The four have the same slice (functions/settings/functions.ts mailingWithProof: the dashboard's, mail and the user pool).
const settings = functionSettings('dashboard/create-api-key');
const { db, tableName } = dynamoFrom(settings);
const mailer = mailerFrom(settings);
const members = new DynamoTeamStore(db, tableName);

const keyStore = new DynamoApiKeyStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);
/** Checks the password (and code) a full-access key's issue asks. */
export const reauthentication = reauthenticationFrom(settings, db);

export const memberships = new DynamoMembershipStore(db, tableName);
export const keys = (log: Log): KeyDeps => ({ keys: keyStore, companies, members, mailer, log });
