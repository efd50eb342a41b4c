/**
 * What domain code logs through. A job passes its run's logger (Powertools: the level from
 * LOG_LEVEL, the run's correlation id on every line); domain code never writes to the console.
 */
export interface Log {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** For callers that pass no logger (tests, the bench): one JSON line on stderr. */
export const stderrLog: Log = {
  warn: (message, fields = {}) => console.error(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields = {}) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};
