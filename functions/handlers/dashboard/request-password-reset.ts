import { ApiError } from '#functions/shared/errors';
import { requestPasswordReset } from '#functions/people/password-reset';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { DynamoPasswordResetStore } from '#adapters/dynamo/password-reset-store';
import { DynamoSignInAttempts } from '#adapters/dynamo/sign-in-attempts-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dynamoFrom } from '#adapters/runtime';
import { dashboardRoute } from '#http/dashboard-route';
import { requestPasswordResetBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/request-password-reset');
const { db, tableName } = dynamoFrom(settings);
const store = new DynamoPasswordResetStore(db, tableName);
const attempts = new DynamoSignInAttempts(db, tableName);
const { identity } = userPoolFrom(settings);
const mailer = mailerFrom(settings);

/** `Forgot your password?`: 202 whether or not an account uses the address, so the answer tells nobody who has one. */
export const handler = dashboardRoute({ body: requestPasswordResetBody, access: 'public' }, async ({ body, origin, dashboardOrigin, log }) => {
  if (!mailer) throw new ApiError('FORBIDDEN', 'This stage sends no mail, so a password cannot be reset here: ask your Cambio operator.');
  // The source too: its own limits on reset mails (functions/people/password-reset.ts).
  await requestPasswordReset({ accounts: identity, store, mailer, resetUrl: `${dashboardOrigin}/dashboard/reset-password`, log, attempts }, body, origin);
  return { status: 202, data: { requested: true } };
});
