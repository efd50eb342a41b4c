import { networkJobHandler } from './network-job.ts';
import type { Log } from '#functions/shared/log';
import type { JobRunOutcome, WithdrawalSenderRun } from '#functions/networks/network';
import { FIRST_NETWORK, type NetworkName } from '#functions/networks/names';
import { jobsOf } from '#functions/networks/job-registry';
import { stderrLog } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoRunLeases } from '#adapters/dynamo/run-lease-store';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/withdrawal-sender');
const table = dynamoFrom(settings);
// Each network's sender, made on its first run and kept across warm invocations.
const senders = new Map<NetworkName, ReturnType<ReturnType<typeof jobsOf>['withdrawalSender']>>();

/** The withdrawal sender of one network (EventBridge schedules in AWS, a timer in the local
 * runtime): send what is pending (withdrawals and split forwards), then settle what was sent. While
 * the issuer pauses the token or freezes the hot wallet, nothing new is sent: withdrawals wait
 * `pending` (functions/networks/token-standing.ts); what was sent before is still settled. How is
 * the network's family's matter (functions/networks/<family>/jobs.ts). */
export async function sendAndSettleWithdrawals(log: Log = stderrLog, timeLeftMs?: () => number, network: NetworkName = FIRST_NETWORK): Promise<JobRunOutcome<WithdrawalSenderRun>> {
  if (!senders.has(network)) senders.set(network, jobsOf(network).withdrawalSender(settings, table));
  return senders.get(network)!(log, timeLeftMs);
}

/** One line per run (INFO when something moved) and the metrics the stack alarms on (the family's
 * counts: withdrawals completed, failed, stuck in `processing`; on an EVM network, with its name,
 * payouts replaced, those the fee cap kept, and the hot wallet's gas). A thrown error is the
 * Lambda's Errors metric, which the sending-failures alarm watches. */
export const handler = networkJobHandler('withdrawal send', new DynamoRunLeases(table.db, table.tableName), (network, log, context) =>
  // The local runtime's timer passes no Lambda context: no deadline there.
  sendAndSettleWithdrawals(log, context.getRemainingTimeInMillis ? () => context.getRemainingTimeInMillis() : undefined, network),
);
