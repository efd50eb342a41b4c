/**
 * Imported by #adapters/tracing before the tracer, because aws-xray-sdk-core decides when it is
 * first loaded: in its default (automatic) mode it enables a process-wide async hook (cls-hooked)
 * that keeps the current segment across awaits, which makes promise-heavy code about 5× slower in a
 * micro-benchmark. That is the price of tracing inside Lambda; where the tracer is off (the local
 * runtime, tests, scripts: Powertools' own rule, no AWS_EXECUTION_ENV, AWS_SAM_LOCAL set or
 * POWERTOOLS_TRACE_ENABLED=false), manual mode skips the hook, and nothing else changes because a
 * disabled tracer creates no segment.
 */
const env = process.env;
const tracing = (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false' && !!env.AWS_EXECUTION_ENV && !env.AWS_SAM_LOCAL;
if (!tracing) env.AWS_XRAY_MANUAL_MODE ??= 'true';

export {};
