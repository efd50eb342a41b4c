import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZER, SESSION_AUTHORIZER, ROUTES, lambdaName, JOBS } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { STAGES } from '../../config/stages.ts';
import { signingJobConcurrencyOf } from '../../lib/networks/registry.ts';
import { cambioFunctions } from '../support/stack-functions.ts';

/** Issue #18, item 3: what keeps a deployed stage running, recoverable and watched (README, Safeguards). */
const SYNTH_TIMEOUT = 60_000;
const COPY_VAULT = 'arn:aws:backup:eu-west-1:123456789012:backup-vault:cambio-copies';

type Resource = { Properties: Record<string, any> };

function synth(stage: 'sandbox' | 'production', context: Record<string, string> = {}) {
  const stack = addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [], ...context } }));
  return { stack, template: Template.fromStack(stack) };
}

const resources = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;
const functionId = (template: Template, stage: string, handler: string) =>
  Object.entries(resources(template, 'AWS::Lambda::Function')).find(([, fn]) => fn.Properties.FunctionName === `Cambio-${stage}-${lambdaName(handler)}`)![0];
const alarms = (template: Template) => Object.values(resources(template, 'AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);

describe.each(['sandbox', 'production'] as const)('Cambio-%s safeguards', (stage) => {
  const config = STAGES[stage];
  let plain: ReturnType<typeof synth>;
  let withSettings: ReturnType<typeof synth>;

  beforeAll(() => {
    plain = synth(stage);
    withSettings = synth(stage, { alarmEmail: 'oncall@example.com', backupCopyVaultArn: COPY_VAULT });
  }, SYNTH_TIMEOUT * 2);

  it(`${stage === 'production' ? 'is' : 'is not'} protected from termination`, () => {
    expect(plain.stack.terminationProtection).toBe(stage === 'production');
  });

  it('backs the table up daily into a vault of its own, kept 35 days, with no copy unless one is set', () => {
    const tableId = Object.keys(resources(plain.template, 'AWS::DynamoDB::Table'))[0]!;
    const plan = Object.values(resources(plain.template, 'AWS::Backup::BackupPlan'))[0]!.Properties.BackupPlan;
    const [rule] = plan.BackupPlanRule;

    expect(plan.BackupPlanRule).toHaveLength(1);
    expect(rule.ScheduleExpression).toBe('cron(0 5 * * ? *)');
    expect(rule.Lifecycle).toEqual({ DeleteAfterDays: 35 });
    expect(rule.CopyActions).toBeUndefined();
    expect(rule.TargetBackupVault['Fn::GetAtt'][0]).toBe(Object.keys(resources(plain.template, 'AWS::Backup::BackupVault'))[0]);
    const selection = Object.values(resources(plain.template, 'AWS::Backup::BackupSelection'))[0]!.Properties.BackupSelection;
    expect(JSON.stringify(selection.Resources)).toContain(tableId);
  });

  it('copies each backup to the vault named by backupCopyVaultArn, kept as long', () => {
    const [rule] = Object.values(resources(withSettings.template, 'AWS::Backup::BackupPlan'))[0]!.Properties.BackupPlan.BackupPlanRule;

    expect(rule.CopyActions).toEqual([{ DestinationBackupVaultArn: COPY_VAULT, Lifecycle: { DeleteAfterDays: 35 } }]);
  });

  it('subscribes alarmEmail to the alarm topic, and nobody without it', () => {
    const topicId = Object.keys(resources(withSettings.template, 'AWS::SNS::Topic'))[0]!;

    withSettings.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com', TopicArn: { Ref: topicId } });
    plain.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('tells the topic when every alarm is over as well as when it starts', () => {
    const topicId = Object.keys(resources(plain.template, 'AWS::SNS::Topic'))[0]!;

    for (const alarm of alarms(plain.template)) expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
  });

  it('alarms when any function is throttled, and when any function but the two authorizers throws', () => {
    const functionIds = Object.keys(cambioFunctions(resources(plain.template, 'AWS::Lambda::Function'))).filter((id) => !id.startsWith('LogRetention'));
    // A single-metric alarm, or a metric of an alarm's math expression (LedgerCsvFailed adds its failure queue).
    const watching = (metric: string) =>
      alarms(plain.template)
        .flatMap((alarm) => [alarm, ...(alarm.Metrics ?? []).filter((candidate: any) => candidate.MetricStat).map((candidate: any) => ({ Namespace: candidate.MetricStat.Metric.Namespace, ...candidate.MetricStat.Metric }))])
        .filter((alarm) => alarm.Namespace === 'AWS/Lambda' && alarm.MetricName === metric)
        .map((alarm) => alarm.Dimensions[0].Value.Ref as string);

    expect(watching('Throttles').sort()).toEqual(functionIds.sort());
    // An authorizer's Errors count every refused credential too (AuthorizerErrors counts real failures).
    const authorizers = [AUTHORIZER, SESSION_AUTHORIZER].map((spec) => functionId(plain.template, stage, spec.handler));
    expect(watching('Errors').sort()).toEqual(functionIds.filter((id) => !authorizers.includes(id)).sort());
  });

  it(`alarms on the API's p99 latency over ${config.safeguards.apiLatencyP99Ms} ms and on DynamoDB throttling of the table`, () => {
    const latency = alarms(plain.template).find((alarm) => alarm.AlarmName === `Cambio-${stage}-ApiLatencyP99`)!;
    expect(latency).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: config.safeguards.apiLatencyP99Ms });

    const throttled = alarms(plain.template).find((alarm) => alarm.AlarmName === `Cambio-${stage}-TableThrottled`)!;
    const tableId = Object.keys(resources(plain.template, 'AWS::DynamoDB::Table'))[0]!;
    const stats = throttled.Metrics.filter((metric: any) => metric.MetricStat).map((metric: any) => metric.MetricStat.Metric);
    expect(stats.map((metric: any) => metric.MetricName).sort()).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    for (const metric of stats) expect(metric.Dimensions).toEqual([{ Name: 'TableName', Value: { Ref: tableId } }]);
  });

  it('reserves each signing job one execution per open network (its lease keeps each network to one run), and nothing for the API: the stage throttle bounds it (docs/capacity.md)', () => {
    const functions = resources(plain.template, 'AWS::Lambda::Function');
    const reserved = (handler: string) => functions[functionId(plain.template, stage, handler)]!.Properties.ReservedConcurrentExecutions;

    expect(reserved(JOBS.withdrawalSender.handler)).toBe(signingJobConcurrencyOf(config));
    expect(reserved(JOBS.depositSweeper.handler)).toBe(signingJobConcurrencyOf(config));
    for (const route of ROUTES) expect(reserved(route.handler), route.handler).toBeUndefined();
    expect(reserved(AUTHORIZER.handler)).toBeUndefined();
    expect(reserved(JOBS.depositPoller.handler)).toBeUndefined();
  });

  it("gives every schedule's target a retry policy bounded by its period and a dead-letter queue, and Lambda no retry of its own", () => {
    const dlqs = resources(plain.template, 'AWS::SQS::Queue');
    // The ledger job's rule is an event pattern, not a schedule (test/infra/finance-ledger.test.ts).
    const rules = Object.values(resources(plain.template, 'AWS::Events::Rule'))
      .map((rule) => rule.Properties)
      .filter((rule) => rule.ScheduleExpression);
    const targets = rules.flatMap((rule) => rule.Targets.map((target: any) => ({ rule, target })));

    expect(targets.length).toBeGreaterThanOrEqual(6);
    for (const { rule, target } of targets) {
      const period = rule.ScheduleExpression.startsWith('rate(1 minute') ? 60 : 3600;
      expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: period });
      expect(dlqs[target.DeadLetterConfig.Arn['Fn::GetAtt'][0]], rule.Description).toBeDefined();
    }
    const invokeConfigs = Object.values(resources(plain.template, 'AWS::Lambda::EventInvokeConfig')).map((config) => config.Properties);
    const scheduled = [JOBS.depositPoller, JOBS.withdrawalSender, JOBS.depositSweeper, JOBS.reconcile, JOBS.webhookDispatcher].map((job) => functionId(plain.template, stage, job.handler));
    for (const id of scheduled) {
      const config = invokeConfigs.find((candidate) => candidate.FunctionName.Ref === id);
      expect(config, id).toMatchObject({ MaximumRetryAttempts: 0 });
    }
  });

  it("sends the stream's failed batches to a dead-letter queue, and alarms on it and on the schedules' one", () => {
    const mapping = Object.values(resources(plain.template, 'AWS::Lambda::EventSourceMapping'))
      .map((candidate) => candidate.Properties)
      .find((candidate) => candidate.StartingPosition === 'TRIM_HORIZON')!;
    const streamDlq = mapping.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
    const scheduleDlq = Object.values(resources(plain.template, 'AWS::Events::Rule'))[0]!.Properties.Targets[0].DeadLetterConfig.Arn['Fn::GetAtt'][0];
    const watchedQueues = alarms(plain.template)
      .filter((alarm) => alarm.MetricName === 'ApproximateNumberOfMessagesVisible')
      .map((alarm) => alarm.Dimensions[0].Value['Fn::GetAtt'][0]);

    expect(streamDlq).not.toBe(scheduleDlq);
    expect(watchedQueues).toEqual(expect.arrayContaining([streamDlq, scheduleDlq]));
  });
});

describe('deployment settings', () => {
  it.each([
    [{ domainName: 'api.example.com' }, /domainName and certificateArn go together/],
    [{ alarmEmail: 'not-an-email' }, /alarmEmail/],
    [{ backupCopyVaultArn: 'vault' }, /backupCopyVaultArn/],
  ])('refuses %j with a message naming the setting', (context, message) => {
    expect(() => addCambioStack(new App({ context: { stage: 'sandbox', 'aws:cdk:bundling-stacks': [], ...context } }))).toThrow(message);
  });
});
