import { resetPassword } from '#functions/people/password-reset';
import { DynamoPasswordResetStore } from '#adapters/dynamo/password-reset-store';
import { DynamoSignOuts } from '#adapters/dynamo/sign-out-store';
import { dynamoFrom } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { resetPasswordBody } from './schemas.ts';
import { auditLog, identity, memberships } from './people-deps.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/reset-password');
const { db, tableName } = dynamoFrom(settings);
const store = new DynamoPasswordResetStore(db, tableName);
const signOuts = new DynamoSignOuts(db, tableName);

/** The link's page: the new password, then every session of the person ends; they sign in with it. */
export const handler = dashboardRoute({ body: resetPasswordBody, access: 'public' }, async ({ body, origin }) => {
  await resetPassword({ accounts: identity, store, signOuts, memberships, auditLog }, body, origin);
  return { data: { reset: true } };
});
