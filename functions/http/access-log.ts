import type { Log } from '#functions/shared/log';
import { invocationTraceHeader, logLevelName, metricsDisabled as metricsDisabledNow, stageName } from '#functions/settings/environment';

/**
 * The one line an API request leaves in the logs: route, status, code, latency and company, keyed by
 * the request id (`correlation_id`, also the `X-Request-Id` answer header). The line is also an
 * embedded-metric-format document (`_aws`), so CloudWatch counts requests by route and status class
 * from it without a second line or an API call.
 *
 * Written by hand rather than with @aws-lambda-powertools/logger and /metrics: the two add about
 * 82 KB (code + source map) to every bundle, too much for the 300 KB API budget
 * (test/infra/bundles.test.ts). The keys are Powertools' own (`level`,
 * `message`, `timestamp`, `service`, `correlation_id`) so one Logs Insights query reads both, and
 * the jobs and the authorizer, where size does not bite, use Powertools (#adapters/observability).
 * Like Powertools' lines, it carries `xray_trace_id`, the request's X-Ray trace (API Gateway's and
 * Lambda's active tracing make one; the API handlers bundle no tracer), so a line leads to its trace.
 *
 * What never goes in: headers, bodies, query strings, path ids, the Idempotency-Key. The fields are
 * listed here one by one so a secret cannot arrive by accident (test/integration/observability.test.ts).
 */
export const METRIC_NAMESPACE = 'Cambio';
export const SERVICE = 'cambio';

const LEVELS = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40 } as const;
type Level = keyof typeof LEVELS;

/** Powertools' variables, read once at cold start: POWERTOOLS_LOG_LEVEL, then LOG_LEVEL, INFO by default. */
const threshold = LEVELS[levelFrom(logLevelName())];
const metricsDisabled = metricsDisabledNow();
const stage = stageName();

export interface RequestOutcome {
  requestId: string;
  /** `METHOD /resource/{param}`: the route template, never the ids in the path. */
  route: string;
  status: number;
  /** The contract's error code of a 4xx/5xx answer, null on success. */
  code: string | null;
  latencyMs: number;
  companyId: string | null;
  /** True when the answer was an Idempotency-Key replay. */
  replayed: boolean;
  /** The cause of a 500, for the log only. */
  error?: unknown;
}

export function logRequest(outcome: RequestOutcome): void {
  const level: Level = outcome.status >= 500 ? 'ERROR' : 'INFO';
  const now = Date.now();
  const line: Record<string, unknown> = {
    ...lineHead(level, 'request', outcome.requestId, now),
    route: outcome.route,
    status: outcome.status,
    code: outcome.code,
    latencyMs: outcome.latencyMs,
    companyId: outcome.companyId,
    ...(outcome.replayed ? { replayed: true } : {}),
    ...(outcome.error === undefined ? {} : { error: describeError(outcome.error) }),
  };
  if (!metricsDisabled) {
    Object.assign(line, {
      stage,
      statusClass: `${Math.floor(outcome.status / 100)}xx`,
      Requests: 1,
      Latency: outcome.latencyMs,
      _aws: {
        Timestamp: now,
        CloudWatchMetrics: [
          {
            Namespace: METRIC_NAMESPACE,
            Dimensions: [['service', 'stage', 'route', 'statusClass']],
            Metrics: [
              { Name: 'Requests', Unit: 'Count' },
              { Name: 'Latency', Unit: 'Milliseconds' },
            ],
          },
        ],
      },
    });
  }
  // Metrics are counted whatever the log level; the line is printed when its level passes.
  if (LEVELS[level] < threshold && metricsDisabled) return;
  if (LEVELS[level] < threshold) {
    // Below the threshold only the metric is wanted: the EMF document without the log fields.
    const { _aws, service, stage: s, route, statusClass, Requests, Latency } = line;
    process.stdout.write(`${JSON.stringify({ _aws, service, stage: s, route, statusClass, Requests, Latency })}\n`);
    return;
  }
  (level === 'ERROR' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
}

/**
 * What a request's domain code logs through (functions/shared/log.ts): a line at WARN or ERROR keyed by the
 * request id like the request's own line, and filtered by the same level. The caller names each
 * field, so no body or header arrives by accident.
 */
export function requestLog(requestId: string): Log {
  const write = (level: 'WARN' | 'ERROR') => (message: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[level] < threshold) return;
    const line = { ...lineHead(level, message, requestId), ...fields };
    (level === 'ERROR' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
  };
  return { warn: write('WARN'), error: write('ERROR') };
}

/** What every line of a request begins with, in Powertools' keys, so one Logs Insights query reads them all. */
const lineHead = (level: Level, message: string, requestId: string, now = Date.now()) => ({
  level,
  message,
  timestamp: new Date(now).toISOString(),
  service: SERVICE,
  correlation_id: requestId,
  ...traceField(),
});

/**
 * `xray_trace_id`: the Root of the invocation's trace header, read per request as Powertools does
 * (Lambda sets _X_AMZN_TRACE_ID for each invocation; with several invocations at once in one
 * process, its InvokeStore holds each one's). Absent outside Lambda.
 */
function traceField(): { xray_trace_id?: string } {
  const lambda = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } }).awslambda;
  const header = lambda?.InvokeStore?.getXRayTraceId() ?? invocationTraceHeader();
  if (!header) return {};
  const root = header.includes('=') ? /(?:^|;)Root=([^;]+)/.exec(header)?.[1] : header;
  return root ? { xray_trace_id: root } : {};
}

function describeError(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error);
}

function levelFrom(value: string | undefined): Level {
  const upper = value?.toUpperCase();
  return upper !== undefined && upper in LEVELS ? (upper as Level) : 'INFO';
}
