import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, SERVICE } from '#http/access-log';

export { MetricUnit };

/**
 * Powertools for the jobs and the authorizer (the API handlers write their one line through
 * #http/access-log, for bundle size). The level comes from POWERTOOLS_LOG_LEVEL or LOG_LEVEL (INFO
 * by default; Lambda's own log-level setting wins when set). Every metric carries the dimensions
 * `service` (cambio) and `stage`, which the stack's alarms name (lib/observability.ts).
 */
export const logger = new Logger({ serviceName: SERVICE });

const stage = process.env.STAGE ?? 'unknown';

/** One buffer per run: a run's metrics leave as one EMF line when it ends. */
export function runMetrics(): Metrics {
  return new Metrics({ namespace: METRIC_NAMESPACE, serviceName: SERVICE, defaultDimensions: { stage } });
}

/**
 * A logger bound to a correlation id. Keys go with each line rather than onto the shared logger,
 * because the local runtime runs concurrent requests and a batch's messages in one process.
 */
export interface BoundLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function withCorrelationId(correlationId: string): BoundLogger {
  const bind =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields: Record<string, unknown> = {}) =>
      logger[level](message, { correlation_id: correlationId, ...fields });
  return { debug: bind('debug'), info: bind('info'), warn: bind('warn'), error: bind('error') };
}

export interface JobRun {
  log: BoundLogger;
  metrics: Metrics;
}

/**
 * Runs one job invocation: a correlation id (Lambda's request id, or a fresh one), one log line for
 * its outcome (INFO when `busy` says the run did something, DEBUG for an idle run, so a scheduler
 * ticking every second locally or every minute in AWS stays quiet), one EMF line for its metrics,
 * and on failure an ERROR line with the cause before the error goes back to Lambda.
 */
export async function runJob<T>(
  name: string,
  context: { awsRequestId?: string } | undefined,
  run: (job: JobRun) => Promise<T>,
  busy: (outcome: T) => boolean = () => true,
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
