import { turnOnTwoFactor } from '#domain/two-factor';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorCodeBody } from './two-factor-schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/confirm-two-factor');
const { db, tableName } = dynamoFrom(settings);
const dashboard = new DynamoDashboardStore(db, tableName);
const { identity } = userPoolFrom(settings);

/** The app's first code: two-factor sign-in is on from the next sign-in. */
export const handler = dashboardRoute({ body: twoFactorCodeBody, access: 'session' }, async ({ body, cookies, personId, origin }) => ({
  data: await turnOnTwoFactor(identity, dashboard, { personId, accessToken: cookies[SESSION_COOKIE]! }, body.code, origin),
}));
