import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoEmailVerificationStore } from '#adapters/dynamo/email-verification-store';
import { DynamoMailCounts } from '#adapters/dynamo/mail-count-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoSignInAttempts } from '#adapters/dynamo/sign-in-attempts-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dynamoFrom } from '#adapters/runtime';
import { ApiError } from '#functions/shared/errors';
import type { Log } from '#functions/shared/log';
import type { SignUpDeps } from '#functions/people/sign-up';
import { functionSettings } from '#functions/settings/functions';

/** What sign-up and proving its address share (Create account, the mailed link, Send the link
 * again), made once per cold start. */
// The three have the same slice (functions/settings/functions.ts).
const settings = functionSettings('dashboard/sign-up');
const { db, tableName } = dynamoFrom(settings);
const mailer = mailerFrom(settings);

export const store = new DynamoEmailVerificationStore(db, tableName);
export const memberships = new DynamoMembershipStore(db, tableName);
export const auditLog = new DynamoAuditLogStore(db, tableName);
export const { identity } = userPoolFrom(settings);
export const signInAttempts = new DynamoSignInAttempts(db, tableName);

/** Sign-up's needs from this request; refused where there is none: production (its first Owner
 * is invited: npm run company:create -- --owner-email), and a stage without mail, where the
 * address could not be proven. */
export function signUpDeps(dashboardOrigin: string, log: Log): SignUpDeps {
  if (settings.STAGE_ENVIRONMENT !== 'sandbox') throw new ApiError('FORBIDDEN', "Sign-up is closed here: ask your company's Owner for an invitation");
  if (!mailer) throw new ApiError('FORBIDDEN', 'This stage sends no mail, so a sign-up could not confirm its address: ask your Cambio operator for an invitation');
  return {
    identity,
    store,
    memberships,
    counts: new DynamoMailCounts(db, tableName),
    mailer,
    log,
    verifyUrl: `${dashboardOrigin}/dashboard/verify-email`,
    signInUrl: `${dashboardOrigin}/dashboard/sign-in`,
    answerMs: settings.SIGN_UP_ANSWER_MS,
  };
}
