import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Schedule, ScheduleExpression, ScheduleGroup, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { Universal } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EXPORT_HOUR_UTC } from '../functions/domain/finance-export.ts';
import { accept } from './nag-suppressions.ts';

export interface FinanceExportProps {
  table: ITable;
  /** Where the scheduler parks a start it gave up on (lib/safeguards.ts FailedInvocations). */
  deadLetterQueue: IQueue;
}

/** Where exports land in the bucket: DynamoDB adds `AWSDynamoDB/<export id>/` below it. */
export const EXPORT_PREFIX = 'exports';

/**
 * The daily point-in-time export of the table for finance (docs/data-model.md, Reading the ledger):
 * EventBridge Scheduler calls DynamoDB's ExportTableToPointInTime directly (a universal target,
 * so no function and no code), in DynamoDB JSON, into a versioned, encrypted bucket that refuses
 * plain HTTP and public access. `npm run ledger:csv -- <export folder>` turns one into CSV.
 * Exports read the PITR backup, not the table: no read capacity is used.
 *
 * The scheduler only sees DynamoDB accept the export; whether it then completes is checked by
 * functions/jobs/finance-export-check.ts (wired in lib/cambio-stack.ts), and both are alarmed on
 * in lib/observability.ts.
 */
export class FinanceExport extends Construct {
  readonly bucket: Bucket;
  readonly scheduleGroup: ScheduleGroup;

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
      // A replaced or deleted export stays recoverable for 90 days.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(90) }],
      removalPolicy: removal,
    });

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
  }
}
