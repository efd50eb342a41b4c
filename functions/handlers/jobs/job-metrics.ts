import type { HoldingsReconciliation } from '#functions/ledger/reconciliation';
import type { JobRunOutcome } from '#functions/networks/network';
import { MetricUnit, runMetrics, type JobRun } from '#adapters/observability';

/** A network job's run as metrics: its counts and seconds, with the `Network` dimension where the
 * network's family gives one (TRON's keep the dimensions its alarms were made on). */
export function publishRun(metrics: JobRun['metrics'], dimension: string | null, run: JobRunOutcome<unknown>): void {
  if (dimension !== null) metrics.addDimension('Network', dimension);
  for (const [name, value] of Object.entries(run.counts)) metrics.addMetric(name, MetricUnit.Count, value);
  for (const [name, value] of Object.entries(run.seconds ?? {})) metrics.addMetric(name, MetricUnit.Seconds, value);
}

/** USDT as a metric value. Metrics only: money itself never leaves bigint (STYLE.md). */
const usdt = (micros: bigint) => Number(micros) / 1e6;

/**
 * Reconcile's figures as metrics (functions/handlers/jobs/reconcile.ts says what each means): the
 * total's in the run's buffer, without a dimension, and each network's as a line of its own under
 * its `Network`. Not Powertools' singleMetric: it publishes at each addMetric and drops the added
 * dimension after the first, so a network's surplus went out as the total's.
 */
export function publishReconciliation(metrics: JobRun['metrics'], result: HoldingsReconciliation): void {
  addDifference(metrics, result);
  metrics.addMetric('ReconcileAddressesRead', MetricUnit.Count, result.depositAddressesRead);
  for (const network of result.networks) {
    const perNetwork = runMetrics();
    perNetwork.addDimension('Network', network.network);
    addDifference(perNetwork, network);
    perNetwork.publishStoredMetrics();
  }
}

/** A reconciliation's shortfall, surplus and unexplained USDT, the total's or a network's. */
function addDifference(metrics: JobRun['metrics'], figures: Pick<HoldingsReconciliation, 'difference' | 'unexplainedHeldUsdt'>): void {
  metrics.addMetric('ReconcileShortfallUsdt', MetricUnit.Count, figures.difference < 0n ? usdt(-figures.difference) : 0);
  metrics.addMetric('ReconcileSurplusUsdt', MetricUnit.Count, figures.difference > 0n ? usdt(figures.difference) : 0);
  metrics.addMetric('ReconcileUnexplainedUsdt', MetricUnit.Count, usdt(figures.unexplainedHeldUsdt));
}
