import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { judgeDailyExport, type ExportVerdict } from '#functions/ledger/finance-export';
import { tableExports } from '#adapters/dynamo/table-exports';
import { awsClient } from '#adapters/aws-clients';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';

const tableArn = functionSettings('jobs/finance-export-check').EXPORT_TABLE_ARN;
const client = awsClient(new DynamoDBClient({}));

/** Today's verdict on the finance export (functions/ledger/finance-export.ts), from the table's exports. */
export async function checkFinanceExport(now = new Date()): Promise<ExportVerdict> {
  return judgeDailyExport(await tableExports(client, tableArn), now);
}

/**
 * The finance export check, hourly after the export's start (lib/cambio-stack.ts): publishes
 * FinanceExportFailed (1 when the day's export failed, is stuck or never started, else 0), which
 * the FinanceExportFailed alarm watches, and logs the verdict with DynamoDB's failure code and
 * message. A thrown error (DynamoDB unreachable, a grant missing) is the Lambda's Errors metric,
 * which the FinanceExportCheckFailing alarm watches.
 */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob('finance export check', context, async ({ log, metrics }) => {
    const verdict = await checkFinanceExport();
    metrics.addMetric('FinanceExportFailed', MetricUnit.Count, verdict.failed ? 1 : 0);
    const summary = {
      outcome: verdict.outcome,
      scheduledAt: verdict.scheduledAt.toISOString(),
      exportArn: verdict.export?.arn ?? null,
      startTime: verdict.export?.startTime.toISOString() ?? null,
      endTime: verdict.export?.endTime?.toISOString() ?? null,
      failureCode: verdict.export?.failureCode ?? null,
      failureMessage: verdict.export?.failureMessage ?? null,
    };
    if (verdict.failed) log.warn('finance export failed', summary);
    return summary;
  }),
);
