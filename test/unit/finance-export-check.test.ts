import { DescribeExportCommand, DynamoDBClient, ListExportsCommand, type ExportDescription } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tableExports } from '#adapters/dynamo/table-exports';
import { lastScheduledAt } from '#functions/ledger/finance-export';
import { jsonLines } from '../support/log-lines.ts';

/**
 * The finance export check against a mocked DynamoDB client: DynamoDB Local implements neither
 * ListExports nor DescribeExport. The job module reads its table ARN and creates its client when
 * first imported, and metrics are on for this file only (test/support/global-setup.ts turns them off).
 */
const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:111122223333:table/Cambio-production-Table';
process.env.STAGE = 'production';
process.env.EXPORT_TABLE_ARN = TABLE_ARN;
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

const dynamo = mockClient(DynamoDBClient);
const exportArn = (id: string) => `${TABLE_ARN}/export/${id}`;

/** Serves these exports from ListExports, two per page, and DescribeExport. */
function serve(descriptions: ExportDescription[]): void {
  dynamo.reset();
  dynamo.on(ListExportsCommand).callsFake(({ NextToken }: { NextToken?: string }) => {
    const start = NextToken ? Number(NextToken) : 0;
    const page = descriptions.slice(start, start + 2);
    return {
      ExportSummaries: page.map(({ ExportArn, ExportStatus }) => ({ ExportArn, ExportStatus, ExportType: 'FULL_EXPORT' })),
      NextToken: start + 2 < descriptions.length ? String(start + 2) : undefined,
    };
  });
  dynamo.on(DescribeExportCommand).callsFake(({ ExportArn }: { ExportArn: string }) => ({
    ExportDescription: descriptions.find((description) => description.ExportArn === ExportArn),
  }));
}

afterAll(() => dynamo.restore());

describe('tableExports', () => {
  it("lists every page of the table's exports and describes each one", async () => {
    const start = new Date('2026-03-10T03:00:02.000Z');
    serve([
      { ExportArn: exportArn('a'), ExportStatus: 'COMPLETED', StartTime: start, EndTime: new Date('2026-03-10T03:09:00.000Z') },
      { ExportArn: exportArn('b'), ExportStatus: 'FAILED', StartTime: start, FailureCode: 'S3AccessDenied', FailureMessage: 'Access Denied' },
      { ExportArn: exportArn('c'), ExportStatus: 'IN_PROGRESS', StartTime: start },
    ]);

    const exports = await tableExports(new DynamoDBClient({ region: 'us-east-1' }), TABLE_ARN);

    expect(exports).toEqual([
      { arn: exportArn('a'), status: 'COMPLETED', startTime: start, endTime: new Date('2026-03-10T03:09:00.000Z') },
      { arn: exportArn('b'), status: 'FAILED', startTime: start, failureCode: 'S3AccessDenied', failureMessage: 'Access Denied' },
      { arn: exportArn('c'), status: 'IN_PROGRESS', startTime: start },
    ]);
    expect(dynamo.commandCalls(ListExportsCommand).map((call) => call.args[0].input)).toEqual([
      { TableArn: TABLE_ARN, MaxResults: 25, NextToken: undefined },
      { TableArn: TABLE_ARN, MaxResults: 25, NextToken: '2' },
    ]);
    expect(dynamo.commandCalls(DescribeExportCommand).map((call) => call.args[0].input.ExportArn)).toEqual([exportArn('a'), exportArn('b'), exportArn('c')]);
  });

  it('returns nothing for a table with no exports', async () => {
    serve([]);

    expect(await tableExports(new DynamoDBClient({ region: 'us-east-1' }), TABLE_ARN)).toEqual([]);
    expect(dynamo.commandCalls(DescribeExportCommand)).toHaveLength(0);
  });

  it('refuses an export DynamoDB describes without a start time rather than guess', async () => {
    serve([{ ExportArn: exportArn('a'), ExportStatus: 'COMPLETED' }]);

    await expect(tableExports(new DynamoDBClient({ region: 'us-east-1' }), TABLE_ARN)).rejects.toThrow(/no status or start time/);
  });
});

describe('the finance export check job', () => {
  const written: string[] = [];
  const lines = () => jsonLines(written);
  const runCheck = async () => {
    const { handler } = await import('../../functions/handlers/jobs/finance-export-check.ts');
    return handler({}, { awsRequestId: 'run-export-check' } as never);
  };
  // Today's export, started just after the schedule whatever time the test runs.
  const today = () => new Date(lastScheduledAt(new Date()).getTime() + 2_000);

  beforeAll(() => {
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => {
    written.length = 0;
  });
  afterAll(() => vi.restoreAllMocks());

  it('publishes FinanceExportFailed 1 and logs a warning with DynamoDB’s failure when today’s export failed', async () => {
    serve([{ ExportArn: exportArn('today'), ExportStatus: 'FAILED', StartTime: today(), FailureCode: 'S3AccessDenied', FailureMessage: 'Access Denied' }]);

    const outcome = await runCheck();

    expect(outcome).toMatchObject({ outcome: 'failed', exportArn: exportArn('today'), failureCode: 'S3AccessDenied' });
    const emf = lines().find((line) => line._aws);
    expect(emf).toMatchObject({ FinanceExportFailed: 1, service: 'cambio', _aws: { CloudWatchMetrics: [{ Namespace: 'Cambio' }] } });
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 'WARN', message: 'finance export failed', correlation_id: 'run-export-check', failureCode: 'S3AccessDenied', failureMessage: 'Access Denied' }),
    );
  });

  it('publishes FinanceExportFailed 1 when no export started since the schedule', async () => {
    const yesterday = new Date(lastScheduledAt(new Date()).getTime() - 60_000);
    serve([{ ExportArn: exportArn('yesterday'), ExportStatus: 'COMPLETED', StartTime: yesterday }]);

    expect(await runCheck()).toMatchObject({ outcome: 'missing', exportArn: null });
    expect(lines().find((line) => line._aws)).toMatchObject({ FinanceExportFailed: 1 });
  });

  it('publishes FinanceExportFailed 0 and no warning when today’s export completed', async () => {
    serve([{ ExportArn: exportArn('today'), ExportStatus: 'COMPLETED', StartTime: today(), EndTime: new Date() }]);

    expect(await runCheck()).toMatchObject({ outcome: 'completed' });
    expect(lines().find((line) => line._aws)).toMatchObject({ FinanceExportFailed: 0 });
    expect(lines().filter((line) => line.level === 'WARN')).toEqual([]);
  });

  it('fails the run (the Lambda Errors metric) when DynamoDB cannot be read, publishing no verdict', async () => {
    dynamo.reset();
    dynamo.on(ListExportsCommand).rejects(new Error('AccessDeniedException'));

    await expect(runCheck()).rejects.toThrow('AccessDeniedException');
    expect(lines().filter((line) => 'FinanceExportFailed' in line)).toEqual([]);
    expect(lines()).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'finance export check failed' }));
  });
});
