import { DescribeExportCommand, DynamoDBClient, ListExportsCommand, type ExportDescription } from '@aws-sdk/client-dynamodb';
import type { ExportStatus, TableExport } from '#functions/ledger/finance-export';

/** DescribeExport calls in flight at once: a control-plane API, kept well under its rate. */
const DESCRIBE_CONCURRENCY = 4;

/**
 * Every export of the table DynamoDB still lists (ListExports keeps about 90 days), each with its
 * start time and outcome. ListExports gives only ARN and status, so each one is described
 * (DescribeExport); the listing does not promise an order, so none can be skipped.
 * DynamoDB Local implements neither call: test/unit/finance-export-check.test.ts mocks the client.
 */
export async function tableExports(client: DynamoDBClient, tableArn: string): Promise<TableExport[]> {
  const arns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.send(new ListExportsCommand({ TableArn: tableArn, MaxResults: 25, NextToken: nextToken }));
    for (const summary of page.ExportSummaries ?? []) if (summary.ExportArn) arns.push(summary.ExportArn);
    nextToken = page.NextToken;
  } while (nextToken);

  const described: TableExport[] = [];
  for (let start = 0; start < arns.length; start += DESCRIBE_CONCURRENCY) {
    const batch = arns.slice(start, start + DESCRIBE_CONCURRENCY);
    const answers = await Promise.all(batch.map((ExportArn) => client.send(new DescribeExportCommand({ ExportArn }))));
    described.push(...answers.map((answer, index) => toTableExport(batch[index]!, answer.ExportDescription)));
  }
  return described;
}

function toTableExport(arn: string, description: ExportDescription | undefined): TableExport {
  const status = description?.ExportStatus as ExportStatus | undefined;
  // Both are set from the moment DynamoDB accepts an export; without them no verdict is sound.
  if (!status || !description?.StartTime) throw new Error(`DescribeExport gave no status or start time for ${arn}`);
  return {
    arn,
    status,
    startTime: description.StartTime,
    ...(description.EndTime && { endTime: description.EndTime }),
    ...(description.FailureCode && { failureCode: description.FailureCode }),
    ...(description.FailureMessage && { failureMessage: description.FailureMessage }),
  };
}
