import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import { publishRun } from './job-metrics.ts';
import type { Log } from '#functions/shared/log';
import type { JobRunOutcome } from '#functions/networks/network';
import { jobNameOf, metricsDimensionOf, type NetworkName } from '#functions/networks/names';
import { runJob } from '#adapters/observability';

/**
 * The Lambda handler of a network job its family runs (functions/networks/network.ts NetworkJobs):
 * on the network its schedule names, one line per run carrying the run's outcome, INFO when the
 * family says the run did something, and the counts and seconds it reports as metrics (publishRun).
 */
export function networkJobHandler<T>(job: string, run: (network: NetworkName, log: Log, context: Context) => Promise<JobRunOutcome<T>>) {
  return middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
    const network = scheduledNetwork(event);
    let busy = false;
    return runJob(
      jobNameOf(job, network),
      context,
      async ({ log, metrics }) => {
        const outcome = await run(network, log, context);
        publishRun(metrics, metricsDimensionOf(network), outcome);
        busy = outcome.busy;
        return outcome.outcome;
      },
      () => busy,
    );
  });
}
