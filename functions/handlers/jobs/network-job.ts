import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import { publishRun } from './job-metrics.ts';
import type { Log } from '#functions/shared/log';
import { RunFailedAfterWork, type JobRunOutcome } from '#functions/networks/network';
import { jobNameOf, metricsDimensionOf, type NetworkName } from '#functions/networks/names';
import { leasedRun, type RunLeases } from '#functions/networks/run-lease';
import { runJob } from '#adapters/observability';

/** A run's lease on its network: past the signing jobs' timeout (55 s, lib/chain-jobs.ts), so it
 * never lapses under a live run, and a run that died frees the network within the next minute. */
export const RUN_LEASE_MS = 60_000;

/**
 * The Lambda handler of a network job its family runs (functions/networks/network.ts NetworkJobs):
 * on the network its schedule names, one run at a time per network (in Lambda, the job's lease on
 * it: functions/networks/run-lease.ts; another run under way answers `{ heldBy: 'another run' }`
 * and counts RunsSkipped), one line per run carrying the run's outcome, INFO when the family says the
 * run did something, and the counts and seconds it reports as metrics (publishRun).
 */
export function networkJobHandler<T>(job: string, leases: RunLeases, run: (network: NetworkName, log: Log, context: Context) => Promise<JobRunOutcome<T>>) {
  return middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
    const network = scheduledNetwork(event);
    let busy = false;
    return runJob(
      jobNameOf(job, network),
      context,
      async ({ log, metrics }) => {
        // Leased in Lambda alone. The local runtime's timer runs each job one run at a time
        // (local/job-loops.ts) and passes no Lambda context; a runtime killed mid-run and started
        // again would otherwise find its networks held for a minute.
        const leased = await (typeof context.getRemainingTimeInMillis === 'function'
          ? leasedRun(leases, { name: `${job}#${network}`, holder: context.awsRequestId ?? randomUUID(), leaseMs: RUN_LEASE_MS }, () => run(network, log, context))
          : run(network, log, context).then((result) => ({ ran: true as const, result }))
        ).catch((error: unknown) => {
          // A run that failed after part of its work still counts that part, then fails.
          if (error instanceof RunFailedAfterWork) publishRun(metrics, metricsDimensionOf(network), error.run);
          throw error instanceof RunFailedAfterWork ? error.failure : error;
        });
        const outcome = leased.ran ? leased.result : { outcome: { heldBy: 'another run' } as const, counts: { RunsSkipped: 1 }, busy: false };
        publishRun(metrics, metricsDimensionOf(network), outcome);
        busy = outcome.busy;
        return outcome.outcome;
      },
      () => busy,
    );
  });
}
