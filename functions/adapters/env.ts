/** Reads a required variable once, at cold start: a missing one fails the first invocation loudly
 * instead of surfacing later as an undefined table name deep in a request. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}
