import { describe, expect, it } from 'vitest';
import { EXPORT_STUCK_AFTER_MS, judgeDailyExport, lastScheduledAt, type TableExport } from '#functions/ledger/finance-export';

const at = (iso: string) => new Date(iso);
const exportOf = (status: TableExport['status'], startIso: string, extra: Partial<TableExport> = {}): TableExport => ({
  arn: `arn:aws:dynamodb:us-east-1:111122223333:table/Cambio/export/${startIso}`,
  status,
  startTime: at(startIso),
  ...extra,
});

describe('lastScheduledAt', () => {
  it("is today's 03:00 UTC from 03:00 on, and yesterday's before it", () => {
    expect(lastScheduledAt(at('2026-03-10T03:00:00.000Z'))).toEqual(at('2026-03-10T03:00:00.000Z'));
    expect(lastScheduledAt(at('2026-03-10T23:59:59.999Z'))).toEqual(at('2026-03-10T03:00:00.000Z'));
    expect(lastScheduledAt(at('2026-03-10T02:59:59.999Z'))).toEqual(at('2026-03-09T03:00:00.000Z'));
  });

  it('crosses month and year ends', () => {
    expect(lastScheduledAt(at('2027-01-01T01:00:00.000Z'))).toEqual(at('2026-12-31T03:00:00.000Z'));
  });
});

describe('judgeDailyExport', () => {
  const now = at('2026-03-10T04:15:00.000Z');

  it("is completed when today's export completed", () => {
    const done = exportOf('COMPLETED', '2026-03-10T03:00:02.000Z', { endTime: at('2026-03-10T03:09:00.000Z') });

    expect(judgeDailyExport([done], now)).toEqual({ outcome: 'completed', failed: false, scheduledAt: at('2026-03-10T03:00:00.000Z'), export: done });
  });

  it('is failed when the only export since the schedule failed, naming it', () => {
    const failed = exportOf('FAILED', '2026-03-10T03:00:02.000Z', { failureCode: 'S3AccessDenied', failureMessage: 'Access Denied' });

    expect(judgeDailyExport([failed], now)).toMatchObject({ outcome: 'failed', failed: true, export: { failureCode: 'S3AccessDenied' } });
  });

  it("is missing (failed) when no export started since today's schedule, whatever happened before it", () => {
    const yesterday = exportOf('COMPLETED', '2026-03-09T03:00:02.000Z');
    const justBefore = exportOf('COMPLETED', '2026-03-10T02:59:59.000Z');

    expect(judgeDailyExport([yesterday, justBefore], now)).toEqual({ outcome: 'missing', failed: true, scheduledAt: at('2026-03-10T03:00:00.000Z') });
    expect(judgeDailyExport([], now)).toMatchObject({ outcome: 'missing', failed: true });
  });

  it('is in progress, not failed, while an export of the day runs', () => {
    const running = exportOf('IN_PROGRESS', '2026-03-10T03:00:02.000Z');

    expect(judgeDailyExport([running], now)).toMatchObject({ outcome: 'in_progress', failed: false, export: running });
  });

  it('is stuck (failed) once the export has run 6 hours', () => {
    const running = exportOf('IN_PROGRESS', '2026-03-10T03:00:00.000Z');

    expect(judgeDailyExport([running], at('2026-03-10T08:59:59.999Z'))).toMatchObject({ outcome: 'in_progress', failed: false });
    expect(judgeDailyExport([running], new Date(running.startTime.getTime() + EXPORT_STUCK_AFTER_MS))).toMatchObject({ outcome: 'stuck', failed: true });
  });

  it('is completed when any export of the day completed, even if a later one failed (finance has its file)', () => {
    const done = exportOf('COMPLETED', '2026-03-10T03:00:02.000Z');
    const manualRetry = exportOf('FAILED', '2026-03-10T04:00:00.000Z');

    expect(judgeDailyExport([manualRetry, done], now)).toMatchObject({ outcome: 'completed', failed: false, export: done });
  });

  it('is in progress when the scheduled export failed and a retry is still running', () => {
    const failed = exportOf('FAILED', '2026-03-10T03:00:02.000Z');
    const retry = exportOf('IN_PROGRESS', '2026-03-10T04:00:00.000Z');

    expect(judgeDailyExport([failed, retry], now)).toMatchObject({ outcome: 'in_progress', failed: false, export: retry });
  });

  it('names the latest failure when several exports of the day failed', () => {
    const first = exportOf('FAILED', '2026-03-10T03:00:02.000Z', { failureCode: 'First' });
    const second = exportOf('FAILED', '2026-03-10T04:00:00.000Z', { failureCode: 'Second' });

    expect(judgeDailyExport([second, first], now).export?.failureCode).toBe('Second');
    expect(judgeDailyExport([first, second], now).export?.failureCode).toBe('Second');
  });

  it("judges yesterday's export before today's 03:00 (a run just after midnight)", () => {
    const yesterday = exportOf('COMPLETED', '2026-03-09T03:00:02.000Z');

    expect(judgeDailyExport([yesterday], at('2026-03-10T01:15:00.000Z'))).toMatchObject({ outcome: 'completed', scheduledAt: at('2026-03-09T03:00:00.000Z') });
  });
});
