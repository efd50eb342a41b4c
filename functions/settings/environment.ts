import type { Environment } from './schema.ts';

/**
 * The process's environment, read here and nowhere else in functions/ (but #adapters/xray-mode,
 * which must set the X-Ray SDK's mode in it before the tracer loads): what a function may read is
 * its settings slice (./functions.ts), checked at cold start, and the few variables Lambda and
 * Powertools set for every function, named below.
 */
export const processEnvironment: Environment = process.env;

// Functions, not values: each reader takes them when it loads (the log and metric modules at cold
// start), which in tests and scripts is after they set the variables, not when this module loads.

/** STAGE: the alarms' `stage` dimension on every metric and log line ('unknown' outside a stage). */
export const stageName = (): string => processEnvironment.STAGE ?? 'unknown';

/** Powertools' log level: POWERTOOLS_LOG_LEVEL, then LOG_LEVEL (each function's logger defaults to INFO). */
export const logLevelName = (): string | undefined => processEnvironment.POWERTOOLS_LOG_LEVEL ?? processEnvironment.LOG_LEVEL;

/** POWERTOOLS_METRICS_DISABLED=true: metric lines are not written (tests and scripts). */
export const metricsDisabled = (): boolean => processEnvironment.POWERTOOLS_METRICS_DISABLED === 'true';

/** The invocation's X-Ray trace header, which Lambda sets anew for each invocation: read each time. */
export const invocationTraceHeader = (): string | undefined => process.env._X_AMZN_TRACE_ID;
