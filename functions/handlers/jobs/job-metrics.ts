import type { JobRunOutcome } from '#functions/networks/network';
import { MetricUnit, type JobRun } from '#adapters/observability';

/** A network job's run as metrics: its counts and seconds, with the `Network` dimension where the
 * network's family gives one (TRON's keep the dimensions its alarms were made on). */
export function publishRun(metrics: JobRun['metrics'], dimension: string | null, run: JobRunOutcome<unknown>): void {
  if (dimension !== null) metrics.addDimension('Network', dimension);
  for (const [name, value] of Object.entries(run.counts)) metrics.addMetric(name, MetricUnit.Count, value);
  for (const [name, value] of Object.entries(run.seconds ?? {})) metrics.addMetric(name, MetricUnit.Seconds, value);
}
