import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, SERVICE } from '#http/access-log';
import { stageName } from '#functions/settings/environment';

export { MetricUnit };

/**
 * Powertools logger and metrics for the jobs and the authorizer (the API handlers write their one
 * line through #http/access-log, for bundle size). The level comes from POWERTOOLS_LOG_LEVEL or
 * LOG_LEVEL (INFO by default; Lambda's own log-level setting wins when set). Every metric carries
 * the dimensions `service` (cambio) and `stage`, which the stack's alarms name (lib/observability.ts).
 * Inside Lambda every line carries `xray_trace_id`, the invocation's X-Ray trace (Powertools reads
 * _X_AMZN_TRACE_ID). The authorizer imports this module alone, without the tracer that
 * #adapters/observability adds for the jobs (functions/handlers/auth/authorizer.ts says why).
 */
export const logger = new Logger({ serviceName: SERVICE });

const stage = stageName();

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
