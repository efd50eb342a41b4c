/** Webhook retry schedules (../shared/api-contract.md, Events and their delivery). */

/** `5s,5m,30m,2h` (or `50ms`) → milliseconds. */
export function parseRetrySchedule(value: string): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(\d+)(ms|s|m|h)$/.exec(part);
      if (!match) throw new Error(`retry schedule entry "${part}" must be a number followed by ms, s, m or h`);
      return Number(match[1]) * units[match[2]!]!;
    });
}

/** The contract's schedule. */
export const CONTRACT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';
