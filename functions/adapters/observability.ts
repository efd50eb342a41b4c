import { randomUUID } from 'node:crypto';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { runMetrics, withCorrelationId, type BoundLogger } from './logs-and-metrics.ts';
import { traced } from './tracing.ts';

/**
 * What the jobs and the webhook sender log, count and trace with: the Powertools logger and metrics
 * (#adapters/logs-and-metrics) and, by importing this module, the Powertools tracer
 * (#adapters/tracing), which from then on records every AWS SDK client the function creates.
 */
export { logger, MetricUnit, runMetrics, withCorrelationId, type BoundLogger } from './logs-and-metrics.ts';

export interface JobRun {
  log: BoundLogger;
  metrics: Metrics;
}

/**
 * Runs one job invocation: a correlation id (Lambda's request id, or a fresh one), one log line for
 * its outcome (INFO when `busy` says the run did something, DEBUG for an idle run, so a scheduler
 * ticking every second locally or every minute in AWS stays quiet), one EMF line for its metrics,
 * an X-Ray subsegment named after the job, and on failure an ERROR line with the cause before the
 * error goes back to Lambda.
 */
export function runJob<T>(
  name: string,
  context: { awsRequestId?: string } | undefined,
  run: (job: JobRun) => Promise<T>,
  busy: (outcome: T) => boolean = () => true,
): Promise<T> {
  return traced(name, () => logRun(name, context, run, busy));
}

async function logRun<T>(
  name: string,
  context: { awsRequestId?: string } | undefined,
  run: (job: JobRun) => Promise<T>,
  busy: (outcome: T) => boolean,
): Promise<T> {
  const log = withCorrelationId(context?.awsRequestId ?? randomUUID());
  const metrics = runMetrics();
  const started = performance.now();
  try {
    const outcome = await run({ log, metrics });
    const fields = { job: name, durationMs: Math.round(performance.now() - started), outcome };
    if (busy(outcome)) log.info(name, fields);
    else log.debug(name, fields);
    return outcome;
  } catch (error) {
    log.error(`${name} failed`, { job: name, durationMs: Math.round(performance.now() - started), error });
    throw error;
  } finally {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  }
}
