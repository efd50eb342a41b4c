import { networkJobHandler } from './network-job.ts';
import type { Log } from '#functions/shared/log';
import type { DepositSweeperRun, JobRunOutcome } from '#functions/networks/network';
import { FIRST_NETWORK, type NetworkName } from '#functions/networks/names';
import { jobsOf } from '#functions/networks/job-registry';
import { stderrLog } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoRunLeases } from '#adapters/dynamo/run-lease-store';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/deposit-sweeper');
const table = dynamoFrom(settings);
// Each network's sweeper, made on its first run and kept across warm invocations.
const sweepers = new Map<NetworkName, ReturnType<ReturnType<typeof jobsOf>['depositSweeper']>>();

export type SweepRun = DepositSweeperRun;

/**
 * Moves credited deposit funds to the network's hot wallet (EventBridge in AWS, a timer locally).
 * First, addresses set aside as frozen that the issuer has unfrozen go back to the due list; then,
 * unless the token is paused or the hot wallet frozen (nothing is swept into a wallet that cannot
 * send, nor while every transfer reverts: functions/networks/token-standing.ts), the network's
 * sweep, as its family does it (functions/networks/<family>/jobs.ts).
 */
export async function sweepDeposits(network: NetworkName = FIRST_NETWORK, log: Log = stderrLog): Promise<JobRunOutcome<SweepRun>> {
  if (!sweepers.has(network)) sweepers.set(network, jobsOf(network).depositSweeper(settings, table));
  return sweepers.get(network)!(log);
}

export const handler = networkJobHandler('deposit sweep', new DynamoRunLeases(table.db, table.tableName), (network, log) => sweepDeposits(network, log));
