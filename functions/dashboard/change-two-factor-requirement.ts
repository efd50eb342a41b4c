import { changeTwoFactorRequirement } from '#domain/two-factor';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorRequirementBody } from './schemas.ts';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/change-two-factor-requirement'));
const dashboard = new DynamoDashboardStore(db, tableName);

/** Team → `Require two-factor sign-in` / `Stop requiring`: Owners only, after a recent sign-in. */
export const handler = dashboardRoute({ body: twoFactorRequirementBody, access: 'manageSecurity', memberships: dashboard, recentSignIn: true }, async ({ caller, body }) => ({
  data: await changeTwoFactorRequirement(dashboard, caller, body.required),
}));
