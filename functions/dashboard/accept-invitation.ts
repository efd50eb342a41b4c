import { acceptInvitation } from '#domain/dashboard';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute, newCsrfToken } from '#http/dashboard-route';
import { acceptInvitationBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/accept-invitation');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const { identity } = userPoolFrom(settings);

export const handler = dashboardRoute({ body: acceptInvitationBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const session = await acceptInvitation(identity, dashboard, body, origin);
  return { data: { signedIn: true }, cookies: sessionCookies(session, newCsrfToken(), secureCookies) };
});
