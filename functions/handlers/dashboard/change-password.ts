import { changePassword } from '#functions/people/password-reset';
import { DynamoPasswordResetStore } from '#adapters/dynamo/password-reset-store';
import { DynamoSignOuts } from '#adapters/dynamo/sign-out-store';
import { dynamoFrom } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { changePasswordBody } from './schemas.ts';
import { auditLog, identity, memberships, signInAttempts } from './people-deps.ts';
import { identityToken } from './session-deps.ts';
import { functionSettings } from '#functions/settings/functions';

const { db, tableName } = dynamoFrom(functionSettings('dashboard/change-password'));
const store = new DynamoPasswordResetStore(db, tableName);
const signOuts = new DynamoSignOuts(db, tableName);

/** Account → `Change password`: then every session of the person ends, this one too. */
export const handler = dashboardRoute({ body: changePasswordBody, access: 'session' }, async ({ body, sessionCookie, personId, origin }) => {
  await changePassword({ accounts: identity, store, signOuts, memberships, auditLog, attempts: signInAttempts }, { personId, accessToken: await identityToken(sessionCookie) }, body, origin);
  return { data: { changed: true } };
});
