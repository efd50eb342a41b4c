import { sendWithdrawal } from '#functions/withdrawals/dashboard-withdrawals';
import { withdrawalRulesFrom } from '#adapters/config';
import { DynamoCodeAttempts } from '#adapters/dynamo/code-attempt-store';
import { DynamoSignInAttempts } from '#adapters/dynamo/sign-in-attempts-store';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { dynamoFrom } from '#adapters/runtime';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { sendWithdrawalBody } from './schemas.ts';

const settings = functionSettings('dashboard/send-withdrawal');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const withdrawals = {
  store: new DynamoWithdrawalStore(db, tableName),
  rules: withdrawalRulesFrom(settings),
  identity: userPoolFrom(settings).identity,
  codes: new DynamoCodeAttempts(db, tableName),
  attempts: new DynamoSignInAttempts(db, tableName),
};

/** `New withdrawal`, confirmed with the person's password (and code): the /v1 withdrawal record, pending. */
export const handler = dashboardRoute({ body: sendWithdrawalBody, access: 'sendWithdrawals', memberships }, async ({ caller, body }) => ({
  status: 201,
  data: await sendWithdrawal(withdrawals, caller, body),
}));
