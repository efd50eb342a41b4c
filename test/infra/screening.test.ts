import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { JOBS, lambdaName } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { STAGES } from '../../config/stages.ts';

/**
 * The screening refresh in the stack (lib/cambio-stack.ts screeningRefreshJob, README "Screening"):
 * OFAC's list downloaded daily from the stage's SCREENING_LIST_URL, its age reported hourly and
 * alarmed past 48 hours, a failed download alarmed once the hourly retry failed too, and the job
 * able to read and write the table's items and nothing else.
 */
describe.each(['sandbox', 'production'] as const)('the screening refresh on Cambio-%s', (stage) => {
  const template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  type Resource = { Properties: Record<string, any> };
  const resources = (type: string) => template.findResources(type) as Record<string, Resource>;
  const [jobId, job] = Object.entries(resources('AWS::Lambda::Function')).find(([, fn]) => fn.Properties.FunctionName === `Cambio-${stage}-${lambdaName(JOBS.screeningRefresh.handler)}`)!;
  const jobArn = { 'Fn::GetAtt': [jobId, 'Arn'] };
  /** The stage's hourly alarm `name` on Cambio's metric, two hours in a row, notifying the topic. */
  const hourlyAlarm = (name: string, rule: Record<string, unknown>): Resource => {
    const alarm = Object.values(resources('AWS::CloudWatch::Alarm')).find((candidate) => candidate.Properties.AlarmName === `Cambio-${stage}-${name}`)!;
    expect(alarm).toBeDefined();
    expect(alarm.Properties).toMatchObject({ Namespace: 'Cambio', Statistic: 'Maximum', Period: 3600, EvaluationPeriods: 2, DatapointsToAlarm: 2, ...rule });
    expect(alarm.Properties.Dimensions).toEqual([
      { Name: 'service', Value: 'cambio' },
      { Name: 'stage', Value: stage },
    ]);
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
    return alarm;
  };
  const rulesOfJob = () => Object.values(resources('AWS::Events::Rule')).filter((rule) => rule.Properties.Targets.some((target: any) => JSON.stringify(target.Arn) === JSON.stringify(jobArn)));

  it("downloads OFAC's list daily at 05:30 UTC (input {refresh: true}) and reports the list's age hourly, both through the schedules' dead-letter queue", () => {
    const rules = rulesOfJob();
    expect(rules.map((rule) => rule.Properties.ScheduleExpression).sort()).toEqual(['cron(30 5 * * ? *)', 'rate(1 hour)']);
    const daily = rules.find((rule) => rule.Properties.ScheduleExpression.startsWith('cron'))!;
    expect(JSON.parse(daily.Properties.Targets[0].Input)).toEqual({ refresh: true });
    const hourly = rules.find((rule) => rule.Properties.ScheduleExpression.startsWith('rate'))!;
    expect(hourly.Properties.Targets[0].Input).toBeUndefined();
    for (const rule of rules) expect(rule.Properties.Targets[0].DeadLetterConfig).toBeDefined();
  });

  it("downloads from the stage's SCREENING_LIST_URL (OFAC's Sanctions List Service), with a gigabyte and five minutes for its ~100 MB", () => {
    expect(job.Properties.Environment.Variables.SCREENING_LIST_URL).toBe(STAGES[stage].functionEnvironment.SCREENING_LIST_URL);
    expect(job.Properties.Environment.Variables.SCREENING_LIST_URL).toBe('https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML');
    expect(job.Properties.MemorySize).toBe(1024);
    expect(job.Properties.Timeout).toBe(300);
  });

  it('may read and write the table’s items (the import’s queries, reads, updates, new entries 25 at a time, and its transaction), and never delete or scan', () => {
    const roleId: string = job.Properties.Role['Fn::GetAtt'][0];
    const tableId = Object.keys(resources('AWS::DynamoDB::Table'))[0]!;
    const statements = Object.values(resources('AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const dynamo = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
    const actions = dynamo.flatMap((statement) => [statement.Action].flat()).sort();

    expect(actions).toEqual(['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    for (const statement of dynamo) expect(JSON.stringify(statement.Resource)).toContain(tableId);
    // Nothing else but its own logs and traces: no key, no secret, no queue.
    const others = statements.flatMap((statement) => [statement.Action].flat()).filter((action) => !/^(dynamodb|logs|xray):/.test(action));
    expect(others).toEqual([]);
  });

  it('alarms ScreeningListAge when the list is over 48 hours old in two hourly reports in a row, or the job stops reporting', () => {
    hourlyAlarm('ScreeningListAge', { MetricName: 'ScreeningListAgeHours', Threshold: 48, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'breaching' });
    // What the job throws (it reports a failed download instead) is one of the functions' error alarms'.
    const grouped = Object.values(resources('AWS::CloudWatch::Alarm')).filter((candidate) => String(candidate.Properties.AlarmName).includes('FunctionsErrors'));
    expect(grouped.filter((group) => JSON.stringify(group.Properties.Metrics).includes(`"${jobId}"`))).toHaveLength(1);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `Cambio-${stage}-ScreeningListAge`, AlarmDescription: Match.stringLikeRegexp('README, Screening') });
  });

  it('alarms ScreeningRefreshFailed when the download or import failed in two hourly runs in a row (the job retries hourly), and says when it is over', () => {
    // Published only by runs that downloaded: an hour without one is not a failure.
    const alarm = hourlyAlarm('ScreeningRefreshFailed', { MetricName: 'ScreeningRefreshFailed', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    expect(alarm.Properties.OKActions).toEqual(alarm.Properties.AlarmActions);
    expect(alarm.Properties.AlarmDescription).toMatch(/SCREENING_UNAVAILABLE.*README, Screening/);
  });
});
