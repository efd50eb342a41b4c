import type { Log } from '#functions/shared/log';
import type { AllowlistDeps } from '#functions/withdrawals/withdrawal-allowlist';
import type { LimitDeps } from '#functions/withdrawals/withdrawal-limit';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoAllowlistStore } from '#adapters/dynamo/withdrawal-allowlist-store';
import { DynamoLimitStore } from '#adapters/dynamo/withdrawal-limit-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { mailerFrom } from '#adapters/mail/from-settings';
import { dynamoFrom } from '#adapters/runtime';
import { functionSettings } from '#functions/settings/functions';
import { stageContractsOf } from '#adapters/config';
import { destinationChecksOf } from '#functions/networks/destination-registry';

/** What the withdrawal allowlist's and the daily limit's routes share, made once per cold start:
 * their records, the stage's waiting period and mailer. */
// The seven have the same slice (functions/settings/functions.ts: the dashboard's, the delay, mail, the stage's contracts).
const settings = functionSettings('dashboard/add-withdrawal-address');
const { db, tableName } = dynamoFrom(settings);
const store = new DynamoAllowlistStore(db, tableName);
const mailer = mailerFrom(settings);
const delayMs = settings.WITHDRAWAL_ADDRESS_DELAY_HOURS * 3_600_000;
const contracts = stageContractsOf(settings);
const destinations = destinationChecksOf(settings);

export const memberships = new DynamoMembershipStore(db, tableName);

const limits = new DynamoLimitStore(db, tableName);
const members = new DynamoTeamStore(db, tableName);

export const allowlist = (log: Log): AllowlistDeps => ({ store, contracts, destinations, delayMs, members, mailer, log });
export const limit = (log: Log): LimitDeps => ({ store: limits, delayMs, members, mailer, log });
