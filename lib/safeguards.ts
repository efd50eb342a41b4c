import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { accept } from './nag-suppressions.ts';

export interface TableBackupProps {
  table: ITable;
  retentionDays: number;
  /** A vault in a second region that every recovery point is copied to (lib/deployment-settings.ts). */
  copyVaultArn: string | null;
  protectData: boolean;
}

/**
 * AWS Backup's daily recovery point of the table (README, Safeguards). PITR restores any second
 * of the last 35 days but dies with the table and the region; a backup in a vault outlives a
 * deleted table, and its copy in a second region outlives the region.
 */
export class TableBackup extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, props: TableBackupProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    this.vault = new BackupVault(this, 'Vault', {
      backupVaultName: `${stackName}-table`,
      // A vault holding recovery points cannot be deleted anyway; RETAIN says so.
      removalPolicy: props.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const deleteAfter = Duration.days(props.retentionDays);
    this.plan = new BackupPlan(this, 'Plan', { backupPlanName: `${stackName}-table` });
    this.plan.addRule(
      new BackupPlanRule({
        ruleName: 'Daily',
        backupVault: this.vault,
        // 05:00 UTC: after the finance export (03:00), away from the hour's jobs.
        scheduleExpression: Schedule.cron({ minute: '0', hour: '5' }),
        deleteAfter,
        copyActions: props.copyVaultArn
          ? [{ destinationBackupVault: BackupVault.fromBackupVaultArn(this, 'CopyVault', props.copyVaultArn), deleteAfter }]
          : undefined,
      }),
    );
    const selection = this.plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(props.table)] });
    accept(
      selection,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      "AWS Backup's role for taking recovery points: AWS's managed policy is the documented one and follows each service AWS Backup adds; this role is assumed by backup.amazonaws.com only and selects this table alone.",
    );
  }
}

/**
 * Where the stack's asynchronous work lands when it cannot be done: events EventBridge could not
 * deliver to a scheduled job (after the target's retries), and the table stream's batches the
 * webhook dispatcher failed on after all its retries. Both are alarmed on (lib/observability.ts);
 * nothing reads them automatically: they are evidence to read, since the next scheduled run or the
 * dispatcher's catch-up pass does the work again.
 */
export class FailedInvocations extends Construct {
  /** Schedule events EventBridge could not deliver (the function missing, throttled past the event's age). */
  readonly scheduleDlq: Queue;
  /** The stream's failure records (shard, sequence numbers): which table changes were not dispatched. */
  readonly streamFailures: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const queue = (name: string) => {
      const created = new Queue(this, name, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
      accept(created, 'AwsSolutions-SQS3', 'This queue is itself a dead-letter destination (an EventBridge target DLQ or a Lambda event source on-failure destination); cdk-nag only recognises queues named in another queue\'s redrive policy.');
      return created;
    };
    this.scheduleDlq = queue('ScheduleDlq');
    this.streamFailures = queue('StreamFailures');
  }

  /**
   * A scheduled job as an EventBridge target. EventBridge retries a failed delivery twice within
   * `maxEventAge` (the schedule's period: an older run is superseded by the next one), then
   * parks the event in the dead-letter queue. Lambda itself does not retry a run that threw, for
   * the same reason: the next scheduled run is the retry, and for the signing jobs (reserved
   * concurrency 1) a retry would only queue behind it.
   */
  scheduledTarget(fn: IFunction, period: Duration, event?: Record<string, unknown>): LambdaFunction {
    // Once per function: a function on several schedules (the deposit poller, one per network) has one async config.
    if (!this.configuredAsync.has(fn)) fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: period });
    this.configuredAsync.add(fn);
    return new LambdaFunction(fn, { retryAttempts: 2, maxEventAge: period, deadLetterQueue: this.scheduleDlq, ...(event && { event: RuleTargetInput.fromObject(event) }) });
  }
  private readonly configuredAsync = new Set<IFunction>();
}
