import { sendWithdrawal } from '#functions/withdrawals/dashboard-withdrawals';
import { withdrawalRulesFrom } from '#adapters/config';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { dynamoFrom } from '#adapters/runtime';
import { reauthenticationFrom } from '#adapters/cognito/reauthentication';
import { functionSettings } from '#functions/settings/functions';
import { dashboardRoute } from '#http/dashboard-route';
import { sendWithdrawalBody } from './schemas.ts';

const settings = functionSettings('dashboard/send-withdrawal');
const { db, tableName } = dynamoFrom(settings);
const memberships = new DynamoMembershipStore(db, tableName);
const withdrawals = {
  store: new DynamoWithdrawalStore(db, tableName),
  rules: withdrawalRulesFrom(settings),
  ...reauthenticationFrom(settings, db),
};

/** `New withdrawal`, confirmed with the person's password (and code): the /v1 withdrawal record, pending. */
export const handler = dashboardRoute({ body: sendWithdrawalBody, access: 'sendWithdrawals', memberships }, async ({ caller, body }) => ({
  status: 201,
  data: await sendWithdrawal(withdrawals, caller, body),
}));
