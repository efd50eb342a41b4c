import { Duration } from 'aws-cdk-lib';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { EXPORT_HOUR_UTC } from '../functions/ledger/finance-export.ts';
import { JOBS } from '../functions/routes.ts';
import type { CambioFunction } from './api-function.ts';
import { tableExports } from './binders.ts';
import type { FinanceExport } from './finance-export.ts';
import { accept } from './nag-suppressions.ts';
import type { StageScope } from './stage-scope.ts';

/** Finance's two jobs beside the daily export (./finance-export.ts): the check that it completed, and the day's ledger CSV. */

/**
 * The finance export check (functions/handlers/jobs/finance-export-check.ts), hourly from an hour after the
 * export's 03:00 UTC start to the end of the UTC day: the scheduler's alarm only sees the export
 * start, this job sees whether it completed. It reads the table's export list and nothing else.
 */
export function financeExportCheck(stack: StageScope): CambioFunction {
  const job = stack.stageFunction(JOBS.financeExportCheck.handler, { bind: [tableExports(stack.table)], timeout: Duration.seconds(60) });
  accept(
    job.role!,
    'AwsSolutions-IAM5[Resource::*]',
    "dynamodb:ListExports lists the account's exports: the Service Authorization Reference gives it no required resource type (table is optional), so it is granted on *; the job asks for this table's exports only and it reveals export ARNs and statuses, no data.",
  );
  accept(
    job.role!,
    `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(stack.table.node.defaultChild as CfnTable)}.Arn>/export/*]`,
    "dynamodb:DescribeExport is authorised per export, and DynamoDB names each export (table/<name>/export/<id>); the job may describe this table's exports only.",
  );
  new Rule(stack, 'FinanceExportCheckSchedule', {
    description: 'Checks that the daily DynamoDB export for finance completed',
    schedule: Schedule.cron({ minute: '15', hour: `${EXPORT_HOUR_UTC + 1}-23` }),
    targets: [stack.failedInvocations.scheduledTarget(job, Duration.hours(1))],
  });
  return job;
}

/**
 * The daily ledger CSV job (functions/handlers/jobs/ledger-day-csv.ts), started when an export completes
 * (lib/finance-export.ts ledgerJob). It reads the export from S3, never the table. Five minutes
 * of 1 GB: a 200,000-entry export takes seconds (BENCHMARKS.md), memory holds a day's postings.
 * It carries its own AWS SDK: its multipart upload is lib-storage's, which Lambda does not list
 * among what its runtime provides, and finance's daily file must not hang on that.
 */
export function ledgerCsvJob(stack: StageScope, financeExport: FinanceExport): { fn: CambioFunction; failures: Queue } {
  const job = stack.stageFunction(JOBS.ledgerDayCsv.handler, { timeout: Duration.minutes(5), memorySize: 1024, bundlesAwsSdk: true });
  return { fn: job, failures: financeExport.ledgerJob(job, stack.failedInvocations.scheduleDlq) };
}
