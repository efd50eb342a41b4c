import { dynamoFrom } from '#adapters/runtime';
import { DynamoCodeAttempts } from '#adapters/dynamo/code-attempt-store';
import { DynamoEmailVerificationStore } from '#adapters/dynamo/email-verification-store';
import { DynamoSignInAttempts } from '#adapters/dynamo/sign-in-attempts-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that sign people in share (sign-in, its two-factor step, accepting an invitation,
 * turning two-factor on), made once per cold start: the people records, the limits on codes and the
 * user pool. */
// Each of them has the same slice (functions/settings/functions.ts, people).
const settings = functionSettings('dashboard/sign-in');
const { db, tableName } = dynamoFrom(settings);

/** With the people's `Person`: sign-in refuses an address never proven, and an invitation replaces its account. */
export const dashboard = new DynamoEmailVerificationStore(db, tableName);
/** Cambio's own counts of failed sign-ins (functions/people/sign-in-limits.ts). */
export const signInAttempts = new DynamoSignInAttempts(db, tableName);
export const { identity } = userPoolFrom(settings);
export const codes = new DynamoCodeAttempts(db, tableName);
