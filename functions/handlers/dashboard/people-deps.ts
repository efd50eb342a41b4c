import type { TwoFactorDeps } from '#functions/people/two-factor';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoCodeAttempts } from '#adapters/dynamo/code-attempt-store';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoEmailVerificationStore } from '#adapters/dynamo/email-verification-store';
import { DynamoInvitationStore } from '#adapters/dynamo/invitation-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoSignInAttempts } from '#adapters/dynamo/sign-in-attempts-store';
import { DynamoTwoFactorStore } from '#adapters/dynamo/two-factor-store';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that sign people in share (sign-in, its two-factor step, accepting an invitation,
 * turning two-factor on), made once per cold start: the people records, the limits on codes and the
 * user pool. */
// Each of them has the same slice (functions/settings/functions.ts, people).
const settings = functionSettings('dashboard/sign-in');
const { db, tableName } = dynamoFrom(settings);

/** The people's `Person`: sign-in refuses an address never proven, and an invitation replaces its account. */
export const people = new DynamoEmailVerificationStore(db, tableName);
export const memberships = new DynamoMembershipStore(db, tableName);
/** Where a person's own acts are logged: each of their companies' audit logs. */
export const auditLog = new DynamoAuditLogStore(db, tableName);
export const invitations = new DynamoInvitationStore(db, tableName);
/** Cambio's own counts of failed sign-ins (functions/people/sign-in-limits.ts). */
export const signInAttempts = new DynamoSignInAttempts(db, tableName);
export const { identity } = userPoolFrom(settings);
export const codes = new DynamoCodeAttempts(db, tableName);

/** Each person's two-factor mark, which a company's rule reads (functions/people/two-factor.ts). */
export const twoFactorMarks = new DynamoTwoFactorStore(db, tableName);

export const twoFactor: TwoFactorDeps = {
  identity,
  codes,
  attempts: signInAttempts,
  memberships,
  auditLog,
  marks: twoFactorMarks,
  companies: new DynamoCompanyStore(db, tableName),
};
