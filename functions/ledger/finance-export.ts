/**
 * Whether today's finance export (lib/finance-export.ts) happened. EventBridge Scheduler only sees
 * DynamoDB accept the export; the export itself runs for minutes after that and can still fail,
 * and DynamoDB announces neither outcome. The check job (functions/handlers/jobs/finance-export-check.ts)
 * lists the table's exports and asks this module for a verdict.
 */

/** The daily export starts at 03:00 UTC, when the previous UTC day is complete. */
export const EXPORT_HOUR_UTC = 3;

/**
 * An export still running this long after it started counts as failed. This table exports in
 * minutes; a run of hours means DynamoDB is stuck on it, and finance has no file for the day.
 */
export const EXPORT_STUCK_AFTER_MS = 6 * 60 * 60 * 1000;

export type ExportStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** One export of the table, as DynamoDB's DescribeExport reports it. */
export interface TableExport {
  arn: string;
  status: ExportStatus;
  startTime: Date;
  endTime?: Date;
  failureCode?: string;
  failureMessage?: string;
}

export type ExportOutcome = 'completed' | 'in_progress' | 'failed' | 'stuck' | 'missing';

export interface ExportVerdict {
  outcome: ExportOutcome;
  /** True when finance has no export for the day and will not get one without someone acting. */
  failed: boolean;
  /** When the day's export was scheduled: exports started since then are the day's. */
  scheduledAt: Date;
  /** The export the verdict is about (none when `missing`). */
  export?: TableExport;
}

/** The latest scheduled start at or before `now`: today's 03:00 UTC, or yesterday's before that. */
export function lastScheduledAt(now: Date, hourUtc = EXPORT_HOUR_UTC): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc);
  return new Date(today <= now.getTime() ? today : today - 24 * 60 * 60 * 1000);
}

/**
 * The day's verdict from every export of the table (in any order) at `now`. Any export started
 * since the schedule counts, a manual one too: finance needs one complete export of the day.
 *
 * - one of them COMPLETED: `completed`;
 * - else one IN_PROGRESS: `in_progress`, or `stuck` (failed) once it has run EXPORT_STUCK_AFTER_MS;
 * - else one FAILED: `failed`, naming the latest failure;
 * - else none at all: `missing` (failed): the scheduler never got an export started.
 */
export function judgeDailyExport(exports: readonly TableExport[], now: Date, options: { hourUtc?: number; stuckAfterMs?: number } = {}): ExportVerdict {
  const scheduledAt = lastScheduledAt(now, options.hourUtc);
  const stuckAfterMs = options.stuckAfterMs ?? EXPORT_STUCK_AFTER_MS;
  const sinceSchedule = exports
    .filter((candidate) => candidate.startTime.getTime() >= scheduledAt.getTime())
    .sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
  const latest = (status: ExportStatus) => sinceSchedule.find((candidate) => candidate.status === status);

  const completed = latest('COMPLETED');
  if (completed) return { outcome: 'completed', failed: false, scheduledAt, export: completed };
  const running = latest('IN_PROGRESS');
  if (running) {
    const stuck = now.getTime() - running.startTime.getTime() >= stuckAfterMs;
    return { outcome: stuck ? 'stuck' : 'in_progress', failed: stuck, scheduledAt, export: running };
  }
  const failed = latest('FAILED');
  if (failed) return { outcome: 'failed', failed: true, scheduledAt, export: failed };
  return { outcome: 'missing', failed: true, scheduledAt };
}
