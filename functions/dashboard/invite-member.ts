import { inviteMember } from '#domain/team-members';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dashboardRoute } from '#http/dashboard-route';
import { inviteMemberBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/invite-member');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const team = new DynamoTeamStore(db, tableName);
const companies = new DynamoCompanyStore(db, tableName);
const mailer = mailerFrom(settings);

/** The only answer that holds the invitation's token: the page turns it into the link to send, and
 * says whether the invited person was also mailed it. */
export const handler = dashboardRoute({ body: inviteMemberBody, access: 'manageTeam', memberships: dashboard }, async ({ caller, body, dashboardOrigin, log }) => ({
  status: 201,
  data: await inviteMember(team, caller, body, mailer && {
    mailer,
    acceptUrl: `${dashboardOrigin}/dashboard/accept-invitation`,
    companies,
    log,
  }),
}));
