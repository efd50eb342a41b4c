import { S3Client } from '@aws-sdk/client-s3';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { writeLedgerFiles, type LedgerFilesRun } from '#adapters/finance/ledger-day-files';
import { awsClient } from '#adapters/aws-clients';
import { MetricUnit, runJob } from '#adapters/observability';
import { isLedgerDay, type LedgerDay } from '#functions/ledger/ledger-csv';
import { functionSettings } from '#functions/settings/functions';

const bucket = functionSettings('jobs/ledger-day-csv').LEDGER_BUCKET;
const s3 = awsClient(new S3Client({}));

/** DynamoDB writes an export's summary last, once its data files are complete. */
const SUMMARY_FILE = /^exports\/AWSDynamoDB\/[^/]+\/manifest-summary\.json$/;

/**
 * What starts a run: EventBridge's "Object Created" for an export's manifest-summary.json (the
 * bucket sends its events to EventBridge, lib/finance-export.ts), or a re-run by hand,
 * `{"summaryKey": "exports/AWSDynamoDB/<export id>/manifest-summary.json", "days": ["2026-11-20"]}`.
 */
export type LedgerCsvEvent = { detail: { bucket: { name: string }; object: { key: string } } } | { summaryKey: string; days?: string[] };

export function runRequest(event: LedgerCsvEvent): { summaryKey: string; days?: LedgerDay[] } {
  const summaryKey = 'detail' in event ? event.detail?.object?.key : event.summaryKey;
  if (typeof summaryKey !== 'string' || !SUMMARY_FILE.test(summaryKey)) {
    throw new Error(`Not an export summary: ${JSON.stringify(summaryKey)}; expected exports/AWSDynamoDB/<export id>/manifest-summary.json`);
  }
  if ('detail' in event) return { summaryKey };
  const days = event.days;
  if (days === undefined) return { summaryKey };
  if (!Array.isArray(days) || days.length === 0 || !days.every(isLedgerDay)) throw new Error(`days must be a non-empty list of YYYY-MM-DD dates; got ${JSON.stringify(days)}`);
  return { summaryKey, days };
}

/**
 * The daily ledger CSV job (README, Finance): turns the export that just completed into
 * `ledger/YYYY/MM/DD.csv` files (functions/adapters/finance/ledger-day-files.ts). A run that throws
 * is retried by Lambda, then recorded in the failure queue; both that and the Errors metric feed
 * the LedgerCsvFailed alarm (lib/observability.ts).
 */
export const handler = middy<LedgerCsvEvent, LedgerFilesRun>().handler(async (event: LedgerCsvEvent, context: Context) =>
  runJob('ledger day csv', context, async ({ log, metrics }): Promise<LedgerFilesRun> => {
    const request = runRequest(event);
    const run = await writeLedgerFiles(s3, bucket, request.summaryKey, request.days);
    metrics.addMetric('LedgerDaysWritten', MetricUnit.Count, run.written.length);
    for (const written of run.written) log.info('ledger day written', { ...written });
    return run;
  }),
);
