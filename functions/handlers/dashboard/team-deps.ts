import type { Log } from '#functions/shared/log';
import type { InvitationMailing } from '#functions/people/team-members';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoMailCounts } from '#adapters/dynamo/mail-count-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { reauthenticationFrom } from '#adapters/cognito/reauthentication';
import { dynamoFrom } from '#adapters/runtime';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that make invitation links share (Invite member, Resend), made once per cold
 * start: the team's records, the stage's mailer, and what checks the password an invitation to a
 * role that reaches money asks. */
// Both have the same slice (functions/settings/functions.ts mailingWithProof: the dashboard's, mail and the user pool).
const settings = functionSettings('dashboard/invite-member');
const { db, tableName } = dynamoFrom(settings);
const companies = new DynamoCompanyStore(db, tableName);
const mailer = mailerFrom(settings);

export const memberships = new DynamoMembershipStore(db, tableName);
export const team = new DynamoTeamStore(db, tableName);
export const mailCounts = new DynamoMailCounts(db, tableName);
export const reauthentication = reauthenticationFrom(settings, db);

/** How a new link is mailed from this request, or null where the stage does not mail. */
export const invitationMailing = (dashboardOrigin: string, log: Log): InvitationMailing | null =>
  mailer && { mailer, acceptUrl: `${dashboardOrigin}/dashboard/accept-invitation`, companies, log };
