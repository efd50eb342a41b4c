import { changeTwoFactorRequirement } from '#functions/people/two-factor';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoTwoFactorStore } from '#adapters/dynamo/two-factor-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorRequirementBody } from './schemas.ts';

const settings = functionSettings('dashboard/change-two-factor-requirement');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);
const twoFactor = new DynamoTwoFactorStore(db, tableName);
const members = new DynamoTeamStore(db, tableName);
const mailer = mailerFrom(settings);

/** Team → `Require two-factor sign-in` / `Stop requiring`: Owners only, after a recent sign-in;
 * the members it stops are mailed. */
export const handler = dashboardRoute({ body: twoFactorRequirementBody, access: 'manageSecurity', memberships }, async ({ caller, body, log }) => ({
  data: await changeTwoFactorRequirement({ store: twoFactor, companies, members, mailer, log }, caller, body.required),
}));
