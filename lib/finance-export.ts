import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Match, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Schedule, ScheduleExpression, ScheduleGroup, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { Universal } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EXPORT_HOUR_UTC } from '../functions/ledger/finance-export.ts';
import { LEDGER_PREFIX } from '../functions/ledger/ledger-csv.ts';
import { accept } from './nag-suppressions.ts';

export interface FinanceExportProps {
  table: ITable;
  /** Where the scheduler parks a start it gave up on (lib/safeguards.ts FailedInvocations). */
  deadLetterQueue: IQueue;
}

/** Where exports land in the bucket: DynamoDB adds `AWSDynamoDB/<export id>/` below it. */
export const EXPORT_PREFIX = 'exports';
/** Where the finance workgroup's Athena query results land (kept 30 days). */
export const ATHENA_RESULTS_PREFIX = 'athena-results';

/**
 * The Glue table's columns, in the order of the CSV's (functions/ledger/ledger-csv.ts
 * POSTING_COLUMNS; Athena maps CSV columns by position). `amount` stays a string, the file's exact
 * decimal: SUM(CAST(amount AS DECIMAL(38,6))) in SQL is exact for both assets (USDT 6 decimals,
 * BRL 2), whereas a DECIMAL column read through the CSV SerDe could turn a bad cell into NULL
 * and a sum silently short; a string column never changes what the file says.
 */
export const LEDGER_TABLE_COLUMNS = [
  { name: 'entry_id', type: 'string', comment: 'LedgerEntry id (led_…, a ULID)' },
  { name: 'created_at', type: 'string', comment: 'ISO 8601 UTC, e.g. 2026-11-20T14:03:07.123Z' },
  { name: 'company_id', type: 'string', comment: 'cmp_… the entry belongs to' },
  { name: 'reference', type: 'string', comment: 'business event, e.g. withdrawal:wdr_…:hold (a leading quote guards formula-like text)' },
  { name: 'source', type: 'string', comment: 'account the money leaves' },
  { name: 'destination', type: 'string', comment: 'account the money enters' },
  { name: 'asset', type: 'string', comment: 'USDT or BRL' },
  { name: 'amount', type: 'string', comment: 'exact decimal string at the asset scale: CAST(amount AS DECIMAL(38,6))' },
  { name: 'network', type: 'string', comment: "a deposit's or withdrawal's network (tron, ethereum, bsc, polygon, arbitrum, solana); empty for other entries, NULL in files written before it" },
] as const;

/**
 * The table's partition: the month folder (`ledger/YYYY/MM/`), projected so no crawler runs.
 * Athena reads a partition as a folder, and each day is one file in its month's folder.
 */
export const LEDGER_PARTITION = { name: 'month', format: 'yyyy/MM', firstMonth: '2026/01' } as const;

/**
 * The daily point-in-time export of the table for finance (docs/data-model.md, Reading the ledger):
 * EventBridge Scheduler calls DynamoDB's ExportTableToPointInTime directly (a universal target,
 * so no function and no code), in DynamoDB JSON, into a versioned, encrypted bucket that refuses
 * plain HTTP and public access. `npm run ledger:csv -- <export folder>` turns one into CSV.
 * Exports read the PITR backup, not the table: no read capacity is used.
 *
 * The scheduler only sees DynamoDB accept the export; whether it then completes is checked by
 * functions/handlers/jobs/finance-export-check.ts (wired in lib/cambio-stack.ts), and both are alarmed on
 * in lib/observability.ts.
 */
export class FinanceExport extends Construct {
  readonly bucket: Bucket;
  readonly scheduleGroup: ScheduleGroup;
  readonly glueDatabase: CfnDatabase;
  readonly ledgerTable: CfnTable;
  readonly workGroup: CfnWorkGroup;
  /** Read-only Athena access to the ledger files, for finance people's roles or users. */
  readonly queryPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: FinanceExportProps) {
    super(scope, id);
    // Finance records outlive the stack on every stage (a non-empty bucket could not be deleted anyway).
    const removal = RemovalPolicy.RETAIN;
    const accessLogs = new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: removal,
    });
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'exports-bucket/',
      lifecycleRules: [
        // A replaced or deleted export or ledger file stays recoverable for 90 days.
        { noncurrentVersionExpiration: Duration.days(90) },
        // Query results are scratch: Athena writes one per query.
        { prefix: `${ATHENA_RESULTS_PREFIX}/`, expiration: Duration.days(30), noncurrentVersionExpiration: Duration.days(1) },
      ],
      removalPolicy: removal,
    });
    // Objects created here reach EventBridge, where the ledger job's rule waits for an export's
    // summary (ledgerJob below). Set on the CloudFormation bucket itself: CDK's eventBridgeEnabled
    // would add a custom resource and its Lambda to do the same.
    (this.bucket.node.defaultChild as CfnBucket).notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };

    const stackName = Stack.of(this).stackName;
    this.scheduleGroup = new ScheduleGroup(this, 'Group', { scheduleGroupName: `${stackName}-finance` });
    const role = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
    });
    accept(
      role,
      `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/${EXPORT_PREFIX}/*]`,
      'DynamoDB writes each export as many objects under the export prefix, with names it chooses; the role may write under that prefix only.',
    );
    const target = new Universal({
      role,
      service: 'dynamodb',
      action: 'exportTableToPointInTime',
      input: ScheduleTargetInput.fromObject({
        TableArn: props.table.tableArn,
        S3Bucket: this.bucket.bucketName,
        S3Prefix: EXPORT_PREFIX,
        S3SseAlgorithm: 'AES256',
        ExportFormat: 'DYNAMODB_JSON',
      }),
      policyStatements: [
        new PolicyStatement({ actions: ['dynamodb:ExportTableToPointInTime'], resources: [props.table.tableArn] }),
        // DynamoDB writes the export with the caller's permissions.
        new PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:PutObjectAcl'],
          resources: [this.bucket.arnForObjects(`${EXPORT_PREFIX}/*`)],
        }),
      ],
      retryAttempts: 3,
      maxEventAge: Duration.hours(6),
      deadLetterQueue: props.deadLetterQueue,
    });
    new Schedule(this, 'Daily', {
      description: `${stackName}: daily point-in-time export of the table for finance`,
      scheduleGroup: this.scheduleGroup,
      // 03:00 UTC: the previous day (UTC) is complete.
      schedule: ScheduleExpression.cron({ minute: '0', hour: String(EXPORT_HOUR_UTC) }),
      target,
    });

    [this.glueDatabase, this.ledgerTable, this.workGroup] = this.athenaCatalog(stackName);
    this.queryPolicy = this.financeQueryPolicy();
  }

  /**
   * The Glue database and table over `ledger/` that finance queries with Athena (README, Finance),
   * and the workgroup whose results land encrypted in this bucket. Partition projection computes
   * each month's folder from the query's `month` filter, so no crawler and no partition upkeep.
   */
  private athenaCatalog(stackName: string): [CfnDatabase, CfnTable, CfnWorkGroup] {
    const databaseName = `${stackName.toLowerCase().replace(/[^a-z0-9]/g, '_')}_finance`;
    const database = new CfnDatabase(this, 'GlueDatabase', {
      catalogId: Aws.ACCOUNT_ID,
      databaseInput: { name: databaseName, description: `${stackName}: ledger postings for finance (README, Finance)` },
    });
    const location = `s3://${this.bucket.bucketName}/${LEDGER_PREFIX}/`;
    const table = new CfnTable(this, 'LedgerTable', {
      catalogId: Aws.ACCOUNT_ID,
      databaseName,
      tableInput: {
        name: 'ledger_postings',
        description: 'One row per ledger posting, one file per UTC day (ledger/YYYY/MM/DD.csv), entries created that day, oldest first',
        tableType: 'EXTERNAL_TABLE',
        parameters: {
          classification: 'csv',
          'skip.header.line.count': '1',
          'projection.enabled': 'true',
          [`projection.${LEDGER_PARTITION.name}.type`]: 'date',
          [`projection.${LEDGER_PARTITION.name}.format`]: LEDGER_PARTITION.format,
          [`projection.${LEDGER_PARTITION.name}.range`]: `${LEDGER_PARTITION.firstMonth},NOW`,
          [`projection.${LEDGER_PARTITION.name}.interval`]: '1',
          [`projection.${LEDGER_PARTITION.name}.interval.unit`]: 'MONTHS',
          'storage.location.template': `${location}\${${LEDGER_PARTITION.name}}/`,
        },
        partitionKeys: [{ name: LEDGER_PARTITION.name, type: 'string', comment: 'yyyy/MM: the month folder' }],
        storageDescriptor: {
          columns: LEDGER_TABLE_COLUMNS.map((column) => ({ ...column })),
          location,
          inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
          // OpenCSVSerde reads the quoted cells the file has (a reference holding a comma or a quote).
          serdeInfo: { serializationLibrary: 'org.apache.hadoop.hive.serde2.OpenCSVSerde', parameters: { separatorChar: ',', quoteChar: '"', escapeChar: '\\' } },
        },
      },
    });
    table.node.addDependency(database);
    const workGroup = new CfnWorkGroup(this, 'WorkGroup', {
      name: `${stackName}-finance`,
      description: `${stackName}: finance's Athena queries over ${databaseName}.ledger_postings`,
      state: 'ENABLED',
      workGroupConfiguration: {
        // Every query's results go to this bucket, encrypted, whatever the client asks.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        resultConfiguration: {
          outputLocation: `s3://${this.bucket.bucketName}/${ATHENA_RESULTS_PREFIX}/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
    return [database, table, workGroup];
  }

  /** What a finance person needs to query the ledger in the workgroup, and nothing else. */
  private financeQueryPolicy(): ManagedPolicy {
    const stack = Stack.of(this);
    const glue = (resource: string) => `arn:${Aws.PARTITION}:glue:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
    const databaseName = this.glueDatabase.ref;
    const policy = new ManagedPolicy(this, 'QueryPolicy', {
      description: `${stack.stackName}: query the ledger postings with Athena in the ${stack.stackName}-finance workgroup`,
      statements: [
        new PolicyStatement({
          actions: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution', 'athena:GetWorkGroup', 'athena:ListQueryExecutions'],
          resources: [`arn:${Aws.PARTITION}:athena:${Aws.REGION}:${Aws.ACCOUNT_ID}:workgroup/${this.workGroup.ref}`],
        }),
        new PolicyStatement({
          actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetTables', 'glue:GetPartitions'],
          resources: [glue('catalog'), glue(`database/${databaseName}`), glue(`table/${databaseName}/ledger_postings`)],
        }),
        new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${LEDGER_PREFIX}/*`)] }),
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [this.bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${LEDGER_PREFIX}/*`, `${ATHENA_RESULTS_PREFIX}/*`] } },
        }),
        new PolicyStatement({ actions: ['s3:GetBucketLocation'], resources: [this.bucket.bucketArn] }),
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
          resources: [this.bucket.arnForObjects(`${ATHENA_RESULTS_PREFIX}/*`)],
        }),
      ],
    });
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    accept(
      policy,
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${LEDGER_PREFIX}/*]`,
      'The ledger files are one object per UTC day under ledger/YYYY/MM/; finance reads them all through Athena, and the grant is that prefix alone, read only.',
    );
    accept(
      policy,
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${ATHENA_RESULTS_PREFIX}/*]`,
      "Athena writes each query's results as objects it names under the workgroup's result prefix; the grant is that prefix alone.",
    );
    return policy;
  }

  /**
   * The daily ledger CSV job (functions/handlers/jobs/ledger-day-csv.ts), started by EventBridge when an
   * export's manifest-summary.json lands: DynamoDB writes it last, once the export completed, so
   * the job runs minutes after the data is there, for a manual export too, and never on a failed
   * one (the export check alarms on those). Lambda retries a failed run twice, then records it in
   * the returned queue; EventBridge parks what it could not deliver in the schedules' dead-letter
   * queue. The job may read exports and write ledger files, nothing else of the bucket.
   */
  ledgerJob(job: IFunction & { addEnvironment(name: string, value: string): unknown }, deliveryDlq: IQueue): Queue {
    const failures = new Queue(this, 'LedgerCsvFailures', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    accept(failures, 'AwsSolutions-SQS3', "This queue is itself a dead-letter destination: the ledger job's on-failure destination, read by on-call when LedgerCsvFailed fires.");
    job.addEnvironment('LEDGER_BUCKET', this.bucket.bucketName);
    job.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${EXPORT_PREFIX}/*`)] }));
    // PutObject authorises each call of a multipart upload; Abort lets a failed one clean up.
    job.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [this.bucket.arnForObjects(`${LEDGER_PREFIX}/*`)] }));
    // Whether a catch-up day already has its file (ListObjectsV2 under ledger/ only).
    job.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn], conditions: { StringLike: { 's3:prefix': `${LEDGER_PREFIX}/*` } } }),
    );
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    accept(job.role!, `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${EXPORT_PREFIX}/*]`, "DynamoDB names each export's files (exports/AWSDynamoDB/<export id>/data/<name>.json.gz); the job may read under the export prefix only, GetObject alone.");
    accept(job.role!, `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${LEDGER_PREFIX}/*]`, 'The job writes one object per UTC day, ledger/YYYY/MM/DD.csv; its grant is that prefix alone, PutObject (and aborting its own multipart uploads) only.');
    job.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(failures) });
    new Rule(this, 'ExportCompleted', {
      description: 'Turns each completed table export into the daily ledger CSV files',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [this.bucket.bucketName] }, object: { key: Match.wildcard(`${EXPORT_PREFIX}/AWSDynamoDB/*/manifest-summary.json`) } },
      },
      targets: [new LambdaFunction(job, { retryAttempts: 2, maxEventAge: Duration.hours(6), deadLetterQueue: deliveryDlq })],
    });
    return failures;
  }
}
