import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaName, JOBS } from '../../functions/routes.ts';
import { POSTING_COLUMNS } from '../../functions/ledger/ledger-csv.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';

/** Issue #18, item 4: the daily ledger CSV for finance, its trigger, its Athena table and who may do what (README, Finance). */
const SYNTH_TIMEOUT = 60_000;

type Resource = { Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown; Effect: string };

describe.each(['sandbox', 'production'] as const)('Cambio-%s finance ledger', (stage) => {
  let template: Template;
  const resources = (type: string) => template.findResources(type) as Record<string, Resource>;
  const only = (type: string): [string, Resource] => {
    const entries = Object.entries(resources(type));
    expect(entries, type).toHaveLength(1);
    return entries[0]!;
  };
  const exportBucketId = () => (template.findOutputs('ExportBucketName').ExportBucketName!.Value as { Ref: string }).Ref;
  const jobId = () => Object.entries(resources('AWS::Lambda::Function')).find(([, fn]) => fn.Properties.FunctionName === `Cambio-${stage}-${lambdaName(JOBS.ledgerDayCsv.handler)}`)![0];
  const statementsOfRole = (roleId: string): Statement[] =>
    Object.values(resources('AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as { Ref?: string }[]).some((role) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);

  beforeAll(() => {
    template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  }, SYNTH_TIMEOUT);

  it("sends the export bucket's object events to EventBridge without a custom resource", () => {
    expect(resources('AWS::S3::Bucket')[exportBucketId()]!.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    expect(Object.keys(template.findResources('Custom::S3BucketNotifications'))).toEqual([]);
  });

  it("starts the ledger job when an export's manifest-summary.json is created, retried, with undelivered events dead-lettered", () => {
    const rules = Object.values(resources('AWS::Events::Rule')).filter((rule) => rule.Properties.EventPattern?.source?.[0] === 'aws.s3');

    expect(rules).toHaveLength(1);
    const { EventPattern, Targets } = rules[0]!.Properties;
    expect(EventPattern).toEqual({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { bucket: { name: [{ Ref: exportBucketId() }] }, object: { key: [{ wildcard: 'exports/AWSDynamoDB/*/manifest-summary.json' }] } },
    });
    expect(Targets).toHaveLength(1);
    expect(Targets[0].Arn).toEqual({ 'Fn::GetAtt': [jobId(), 'Arn'] });
    expect(Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
    expect(Targets[0].DeadLetterConfig.Arn['Fn::GetAtt'][1]).toBe('Arn');
  });

  it('retries a failed run twice, then parks it in a failure queue that the LedgerCsvFailed alarm watches with the Errors metric', () => {
    const invokeConfig = Object.values(resources('AWS::Lambda::EventInvokeConfig')).find((config) => config.Properties.FunctionName.Ref === jobId())!;
    expect(invokeConfig.Properties.MaximumRetryAttempts).toBe(2);
    const failureQueueId = invokeConfig.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0] as string;
    expect(resources('AWS::SQS::Queue')[failureQueueId]).toBeDefined();

    const alarm = Object.values(resources('AWS::CloudWatch::Alarm')).find((candidate) => candidate.Properties.AlarmName === `Cambio-${stage}-LedgerCsvFailed`)!;
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
    expect(alarm.Properties.OKActions).toEqual(alarm.Properties.AlarmActions);
    const metrics = alarm.Properties.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: unknown }[] } } }[];
    expect(metrics.find((metric) => metric.Expression)!.Expression).toBe('IF(FILL(failed, 0) >= 1 OR FILL(errors, 0) >= 3, 1, 0)');
    expect(metrics.find((metric) => metric.Id === 'failed')!.MetricStat!.Metric.Dimensions[0]!.Value).toEqual({ 'Fn::GetAtt': [failureQueueId, 'QueueName'] });
    expect(metrics.find((metric) => metric.Id === 'errors')!.MetricStat!.Metric).toMatchObject({ MetricName: 'Errors', Dimensions: [{ Value: { Ref: jobId() } }] });
  });

  it('lets the job read exports and write ledger files, and nothing else of the bucket', () => {
    const roleId = resources('AWS::Lambda::Function')[jobId()]!.Properties.Role['Fn::GetAtt'][0] as string;
    const s3 = statementsOfRole(roleId).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
    const bucketArn = { 'Fn::GetAtt': [exportBucketId(), 'Arn'] };
    const under = (prefix: string) => ({ 'Fn::Join': ['', [bucketArn, `/${prefix}/*`]] });

    expect(s3).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: under('exports') },
      { Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: under('ledger') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucketArn, Condition: { StringLike: { 's3:prefix': 'ledger/*' } } },
    ]);
    const everything = statementsOfRole(roleId).flatMap((statement) => [statement.Action].flat());
    expect(everything.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(resources('AWS::Lambda::Function')[jobId()]!.Properties.Environment.Variables.LEDGER_BUCKET).toEqual({ Ref: exportBucketId() });
  });

  it('catalogues ledger/ as a Glue table: the CSV columns in order, header skipped, amounts exact strings, months projected', () => {
    const [, database] = only('AWS::Glue::Database');
    const [, table] = only('AWS::Glue::Table');
    const input = table.Properties.TableInput;

    expect(database.Properties.DatabaseInput.Name).toBe(`cambio_${stage}_finance`);
    expect(table.Properties.DatabaseName).toBe(`cambio_${stage}_finance`);
    expect(input.Name).toBe('ledger_postings');
    expect(input.StorageDescriptor.Columns.map((column: { Name: string; Type: string }) => [column.Name, column.Type])).toEqual(
      POSTING_COLUMNS.map((column) => [column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), 'string']),
    );
    expect(input.StorageDescriptor.SerdeInfo.SerializationLibrary).toBe('org.apache.hadoop.hive.serde2.OpenCSVSerde');
    expect(input.StorageDescriptor.SerdeInfo.Parameters).toMatchObject({ separatorChar: ',', quoteChar: '"' });
    expect(input.PartitionKeys).toEqual([expect.objectContaining({ Name: 'month', Type: 'string' })]);
    expect(input.Parameters).toMatchObject({
      'skip.header.line.count': '1',
      'projection.enabled': 'true',
      'projection.month.type': 'date',
      'projection.month.format': 'yyyy/MM',
      'projection.month.interval.unit': 'MONTHS',
      'storage.location.template': { 'Fn::Join': ['', ['s3://', { Ref: exportBucketId() }, '/ledger/${month}/']] },
    });
  });

  it("gives finance an Athena workgroup whose results are encrypted in the export bucket, and a read-only policy to query it", () => {
    const [, workGroup] = only('AWS::Athena::WorkGroup');
    expect(workGroup.Properties.WorkGroupConfiguration).toMatchObject({
      EnforceWorkGroupConfiguration: true,
      ResultConfiguration: {
        OutputLocation: { 'Fn::Join': ['', ['s3://', { Ref: exportBucketId() }, '/athena-results/']] },
        EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
      },
    });
    const lifecycle = resources('AWS::S3::Bucket')[exportBucketId()]!.Properties.LifecycleConfiguration.Rules;
    expect(lifecycle).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'athena-results/', ExpirationInDays: 30 })]));

    const policy = Object.values(resources('AWS::IAM::ManagedPolicy')).find((candidate) => String(candidate.Properties.Description).includes('-finance workgroup'))!;
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    expect(actions.filter((action) => /^s3:(Put|Delete)/.test(action))).toEqual(['s3:PutObject']);
    const put = statements.find((statement) => [statement.Action].flat().includes('s3:PutObject'))!;
    expect(JSON.stringify(put.Resource)).toContain('/athena-results/*');
    expect(actions.filter((action) => action.startsWith('glue:'))).toEqual(['glue:GetDatabase', 'glue:GetTable', 'glue:GetTables', 'glue:GetPartitions']);
    expect(statements.every((statement) => [statement.Resource].flat().every((resource) => resource !== '*'))).toBe(true);
  });
});
