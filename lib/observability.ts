import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE } from '../functions/http/access-log.ts';
import { TABLE } from '../functions/adapters/dynamo/table-definition.ts';
import { lambdaName, ROUTES } from '../functions/routes.ts';
import { PERIOD, type AlarmFactory, type AppMetric } from './alarms.ts';
import { chainAlarms, type ChainAlarmsProps } from './chain-alarms.ts';

export interface OperationsAlarmsProps extends ChainAlarmsProps {
  apiStage: Stage;
  /** The dashboard's own API's stage (lib/dashboard.ts), alarmed on as the /v1 API's. */
  dashboardApiStage: Stage;
  /** The webhook queue, whose backlog is alarmed on, and its dead-letter queue. */
  webhookQueue: IQueue;
  webhookDlq: IQueue;
  /** The REQUEST authorizers (API keys, dashboard sessions): their Errors count refusals too. */
  authorizers: readonly IFunction[];
  /** Turns events into webhook deliveries: failing, events stay undispatched and no webhook leaves. */
  webhookDispatcher: IFunction;
  /** The finance export's EventBridge Scheduler group (its failures to start the export are alarmed on). */
  exportScheduleGroup: string;
  /** The job that checks the export completed (functions/handlers/jobs/finance-export-check.ts). */
  financeExportCheck: IFunction;
  /** The daily ledger CSV job (functions/handlers/jobs/ledger-day-csv.ts) and the queue of its runs that failed after Lambda's retries. */
  ledgerCsv: { fn: IFunction; failures: IQueue };
  /** Context `alarmEmail`: subscribed to the topic (lib/deployment-settings.ts). */
  alarmEmail: string | null;
  /** Context `mailFrom`: where the stage mails through SES, its sending reputation is alarmed on. */
  mailFrom: string | null;
  /** Every function of the stack by its Lambda name: each gets a throttle alarm, and an error alarm unless named below. */
  functions: readonly { name: string; fn: IFunction }[];
  table: ITable;
  /** The ApiLatencyP99 alarm's threshold (config/stages.ts safeguards). */
  apiLatencyP99Ms: number;
  /** lib/safeguards.ts FailedInvocations. */
  scheduleDlq: IQueue;
  streamFailures: IQueue;
}

/** CloudWatch takes at most 10 metrics in one metric math alarm. */
const METRICS_PER_ALARM = 10;
/** And at most 100 alarms in one alarm status widget. */
const ALARMS_PER_WIDGET = 100;

/** The routes that take or pay out money: each alarmed on its own 5xx, which the stage-wide rate
 * hides (one of them failing entirely is some 2 % of the API's requests). */
const MONEY_ROUTES = ['POST /v1/deposits', 'POST /v1/withdrawals', 'POST /v1/conversions', 'POST /v1/conversions/quote'];

/**
 * What devops watches (README, Operations): alarms that notify one SNS topic, and a dashboard.
 * The application metrics are the ones the functions publish in embedded metric format, all with
 * the dimensions `service` and `stage` (functions/adapters/observability.ts, functions/http/access-log.ts).
 *
 * The alarms of each network but the first (TRON) are a nested stack of their own
 * (`networkAlarmsStack`): each adds some ten alarms, and in the stage's own template a stage that
 * opens every network passed the 500 resources CloudFormation allows a stack (521; `cdk synth`
 * refused it). So does every alarm added since (the jobs not running, deposits stuck confirming or
 * held, sweeps failing, the webhooks', the money routes', the dashboard API's): with every network
 * open the stage's template held 449 resources already. The alarms made before, stage-wide and the
 * first network's, and the dashboard stay in the stage's template, as deployed stages have them: an
 * alarm's name is fixed (`<stack>-<name>`), and CloudFormation makes a resource it moves between
 * templates anew before it deletes the old one, which for a named alarm would clash with itself.
 */
export class OperationsAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  /** The alarms of the networks but the first, and those added since the stage's template filled up (docs/capacity.md, "The stack's size"). */
  readonly networkAlarmsStack: NestedStack;

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const app = (metricName: string, statistic: string, period = PERIOD) =>
      new Metric({ namespace: METRIC_NAMESPACE, metricName, dimensionsMap: { service: SERVICE, stage: props.stage }, statistic, period });

    // CloudWatch alarms publish to an encrypted topic only through a key whose policy lets them.
    const topicKey = new Key(this, 'TopicKey', { description: `${stackName} alarm topic`, enableKeyRotation: true });
    topicKey.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new Topic(this, 'Topic', { displayName: `${stackName} alarms`, masterKey: topicKey, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarmIn = (scope: Construct): AlarmFactory => (name, description, metric, options) => {
      const created = new Alarm(scope, name, {
        alarmName: `${stackName}-${name}`,
        alarmDescription: description,
        metric,
        threshold: options.threshold,
        comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        datapointsToAlarm: options.datapointsToAlarm,
        treatMissingData: options.missing ?? TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      // On-call hears when it is over too, not only when it starts.
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };
    const alarm = alarmIn(this);
    // Its id predates the alarms added there since: renamed, CloudFormation would make it anew
    // before deleting the old one, with every named alarm in it clashing with itself.
    this.networkAlarmsStack = new NestedStack(this, 'NetworkAlarms', { description: `${stackName}: the alarms of each network but the first, and those added since the stage's template filled up` });
    const nestedAlarm = alarmIn(this.networkAlarmsStack);

    const requests = props.apiStage.metricCount({ period: PERIOD, statistic: 'Sum' });
    const serverErrors = props.apiStage.metricServerError({ period: PERIOD, statistic: 'Sum' });
    const serverErrorRate = serverErrorRateOf(props.apiStage);
    alarm('Api5xxRate', 'More than 5 % of API requests answered 5xx in two of the last three 5-minute periods (gateway and handlers).', serverErrorRate, {
      threshold: 5,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    alarm('AuthorizerErrors', "An authorizer failed (not a refusal: the table could not be read), the API's or the dashboard's session authorizer; callers got 500 AUTHORIZER_FAILURE (the dashboard's people an error, not a sign-out).", app('AuthorizerErrors', 'Sum'), {
      threshold: 5,
    });
    this.webhookAlarms(props, nestedAlarm, app);
    this.moneyRouteAlarms(props, nestedAlarm);
    this.dashboardApiAlarms(props, nestedAlarm);
    chainAlarms(props, { stage: alarm, nested: nestedAlarm }, app);
    alarm(
      'WebhookDispatcherFailing',
      'The webhook dispatcher threw in two of the last three 5-minute periods: events are not becoming deliveries (they stay undispatched and are sent once it recovers).',
      props.webhookDispatcher.metricErrors({ period: PERIOD, statistic: 'Sum' }),
      { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 },
    );
    // EventBridge Scheduler's metrics, per schedule group (namespace AWS/Scheduler, dimension
    // ScheduleGroup; https://docs.aws.amazon.com/scheduler/latest/UserGuide/monitoring-cloudwatch.html,
    // and aws-cdk-lib's ScheduleGroup.metricTargetErrors/metricTargetThrottled/metricDropped name
    // the same three): TargetErrorCount, the target API (ExportTableToPointInTime) answered an
    // error; TargetErrorThrottledCount, it throttled the call; InvocationDroppedCount, the scheduler
    // gave up after the schedule's retries. Each attempt is retried (lib/finance-export.ts), so the
    // first two can precede a start that succeeded; the third means no export was started today.
    const scheduler = (metricName: string) =>
      new Metric({ namespace: 'AWS/Scheduler', metricName, dimensionsMap: { ScheduleGroup: props.exportScheduleGroup }, statistic: 'Sum', period: Duration.hours(1) });
    const exportNotStarted = new MathExpression({
      // FILL: a period in which one of them has no datapoint still sums the others.
      expression: 'FILL(errors, 0) + FILL(throttled, 0) + FILL(dropped, 0)',
      usingMetrics: { errors: scheduler('TargetErrorCount'), throttled: scheduler('TargetErrorThrottledCount'), dropped: scheduler('InvocationDroppedCount') },
      label: 'Export start failures',
      period: Duration.hours(1),
    });
    alarm(
      'FinanceExportNotStarted',
      "EventBridge Scheduler's call to start the daily DynamoDB export failed: DynamoDB refused or throttled it (the scheduler retries), or the scheduler dropped it after its retries. FinanceExportFailed says whether an export completed today.",
      exportNotStarted,
      { threshold: 1 },
    );
    // The export runs after DynamoDB accepted it and can still fail; DynamoDB publishes no event for
    // that, so the check job lists the exports hourly from 04:15 UTC (functions/ledger/finance-export.ts).
    const exportFailed = app('FinanceExportFailed', 'Maximum', Duration.hours(1));
    alarm(
      'FinanceExportFailed',
      "Today's DynamoDB export for finance failed, has run for over 6 hours, or was never started (the check job's verdict; its log line names DynamoDB's failure code and message).",
      exportFailed,
      { threshold: 1 },
    );
    alarm(
      'FinanceExportCheckFailing',
      'The finance export check threw in two hourly runs in a row: nothing is watching whether the daily export completed.',
      props.financeExportCheck.metricErrors({ period: Duration.hours(1), statistic: 'Sum' }),
      { threshold: 1, evaluationPeriods: 2, datapointsToAlarm: 2 },
    );

    // Lambda runs the job up to three times on one export (lib/finance-export.ts ledgerJob): three
    // errors in the hour, or a run parked in the failure queue, mean a day's file is missing.
    const ledgerCsvFailed = new MathExpression({
      expression: 'IF(FILL(failed, 0) >= 1 OR FILL(errors, 0) >= 3, 1, 0)',
      usingMetrics: {
        failed: props.ledgerCsv.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.hours(1), statistic: 'Maximum' }),
        errors: props.ledgerCsv.fn.metricErrors({ period: Duration.hours(1), statistic: 'Sum' }),
      },
      label: 'Ledger CSV failed',
      period: Duration.hours(1),
    });
    alarm(
      'LedgerCsvFailed',
      "The daily ledger CSV job failed on an export after Lambda's retries (its failure queue holds the export and the error): finance is missing ledger/YYYY/MM/DD.csv. Read the job's log, then re-run the day (README, Finance) and empty the queue.",
      ledgerCsvFailed,
      { threshold: 1 },
    );

    // The screening refresh reports the age hourly, downloading daily (functions/screening/
    // screening-refresh.ts): two hours without a report mean the job itself stopped, as bad as an old
    // list. A failed download is reported there, not thrown; what the job throws (the table
    // unreachable) is in the functions' error alarms below.
    const screeningAge = app('ScreeningListAgeHours', 'Maximum', Duration.hours(1));
    alarm(
      'ScreeningListAge',
      "OFAC's SDN list was last imported into the screening list over 48 hours ago (two daily downloads failed), or the screening refresh job stopped reporting: withdrawals and splits are screened against an old list. Read the job's log ('screening list not refreshed' names the cause: OFAC unreachable, a refused file), fix it or import the file by hand (README, Screening).",
      screeningAge,
      { threshold: 48, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2, datapointsToAlarm: 2, missing: TreatMissingData.BREACHING },
    );
    // Published by a run that downloaded: the daily one, and every hourly one while the last attempt
    // failed. Two failed hours in a row, not one: OFAC's server failing once is retried within the
    // hour. A stage whose list was never loaded refuses every payout meanwhile, so this is on-call's
    // before the age alarm's 48 hours.
    const refreshFailed = app('ScreeningRefreshFailed', 'Maximum', Duration.hours(1));
    alarm(
      'ScreeningRefreshFailed',
      "The screening refresh job failed to download or import OFAC's SDN list in two hourly runs in a row (it tries again every hour): new listings are not screened, and a stage that never loaded the list refuses withdrawals, splits and allowlist entries (503 SCREENING_UNAVAILABLE) and credits no deposit. Read the job's log ('screening list not refreshed' names the cause), fix it or import the file by hand (README, Screening).",
      refreshFailed,
      { threshold: 1, evaluationPeriods: 2, datapointsToAlarm: 2 },
    );

    if (props.mailFrom) {
      // The account's reputation (namespace AWS/SES, no dimension; decimals, 0.05 is 5 %), which is
      // what SES acts on: reviewed at 5 % bounces or 0.1 % complaints, sending paused beyond. The
      // alarms fire at less than half of each, while there is time to find the cause.
      const reputation = (metricName: string) => new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
      alarm(
        'MailBounceRate',
        "SES's bounce rate for the account is over 2 % (SES reviews it at 5 % and may pause sending: invitations, password resets, webhook alerts and key notices stop). Suppressed addresses are not retried; look for mistyped invitations in the audit log.",
        reputation('Reputation.BounceRate'),
        { threshold: 0.02, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD },
      );
      alarm(
        'MailComplaintRate',
        "SES's complaint rate for the account is over 0.05 % (SES reviews it at 0.1 %): recipients marked Cambio's mail as spam.",
        reputation('Reputation.ComplaintRate'),
        { threshold: 0.0005, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD },
      );
    }

    this.safeguardAlarms(props, alarm, nestedAlarm);

    const wide = 12;
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: wide, height: 6 });
    const alarmStatus = [];
    for (let start = 0; start < this.alarms.length; start += ALARMS_PER_WIDGET) {
      alarmStatus.push([new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms.slice(start, start + ALARMS_PER_WIDGET), width: 24, height: 4 })]);
    }
    const requestsByRoute = new MathExpression({
      expression: `SEARCH('{${METRIC_NAMESPACE},service,stage,route,statusClass} MetricName="Requests" stage="${props.stage}"', 'Sum', 300)`,
      usingMetrics: {},
      label: '',
      period: PERIOD,
    });
    new Dashboard(this, 'Dashboard', {
      dashboardName: stackName,
      widgets: [
        ...alarmStatus,
        [
          graph('API requests and 5xx rate', [requests, props.apiStage.metricClientError({ period: PERIOD, statistic: 'Sum' }), serverErrors], [serverErrorRate]),
          graph('API latency (ms)', [props.apiStage.metricLatency({ period: PERIOD, statistic: 'p50' }), props.apiStage.metricLatency({ period: PERIOD, statistic: 'p99' })]),
        ],
        [graph('Requests by route and status class', [requestsByRoute]), graph('Authentication', [app('AuthFailures', 'Sum'), app('AuthorizerErrors', 'Sum')])],
        [
          graph('Deposits: scanner lag (blocks) and credits', [app('ScannerLagBlocks', 'Maximum')], [app('DepositsCredited', 'Sum')]),
          graph('Withdrawals', [app('WithdrawalsSent', 'Sum'), app('WithdrawalsCompleted', 'Sum'), app('WithdrawalsFailed', 'Sum'), app('WithdrawalsStuckProcessing', 'Maximum')], [app('OldestStuckWithdrawalAge', 'Maximum')]),
        ],
        [
          graph('Webhooks', [app('WebhookDeliveriesSucceeded', 'Sum'), app('WebhookTriesFailed', 'Sum'), app('WebhookDeliveriesFailed', 'Sum')], [props.webhookDlq.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' })]),
          graph('Reconciliation (USDT)', [
            app('ReconcileShortfallUsdt', 'Maximum', Duration.hours(1)),
            app('ReconcileSurplusUsdt', 'Maximum', Duration.hours(1)),
            app('ReconcileUnexplainedUsdt', 'Maximum', Duration.hours(1)),
          ]),
        ],
        [graph('Finance export', [exportFailed], [exportNotStarted]), graph('Ledger CSV', [ledgerCsvFailed], [app('LedgerDaysWritten', 'Sum', Duration.hours(1))])],
        [graph('Screening list age (hours)', [screeningAge], [refreshFailed])],
      ],
    });
  }

  /**
   * The webhooks. A try that fails is an integrator's endpoint most of the time, which its managers
   * are mailed about (functions/webhooks/webhook-alerts.ts); these say what is Cambio's: tries
   * failing for every company at once, messages the sender could not handle, a backlog. The
   * dead-letter queue keeps each delivery given up after its last try for 14 days, so an alarm on
   * it holding a message stayed red for days after any one endpoint's outage and hid the next failure.
   */
  private webhookAlarms(props: OperationsAlarmsProps, alarm: AlarmFactory, app: AppMetric): void {
    const window = Duration.minutes(15);
    const tries = (metricName: string) => app(metricName, 'Sum', window);
    const failed = new MathExpression({ expression: 'FILL(retrying, 0) + FILL(givenUp, 0)', usingMetrics: { retrying: tries('WebhookTriesFailed'), givenUp: tries('WebhookDeliveriesFailed') }, period: window });
    const made = new MathExpression({ expression: 'failed + FILL(succeeded, 0)', usingMetrics: { failed, succeeded: tries('WebhookDeliveriesSucceeded') }, period: window });
    alarm(
      'WebhookTriesFailing',
      "Over half of the webhook tries of the last 15 minutes failed (20 tries at least): every company's endpoints failing at once is Cambio's side, not theirs. Read the webhook sender's log (Cambio-<stage>-JobsWebhookSender, lines 'webhook delivery'): the same error for every endpoint (a DNS or connection failure, 'url refused', a timeout) is the sender's network or a change of Cambio's; one company's endpoint carrying most of the tries is theirs, and they are mailed.",
      new MathExpression({ expression: 'IF(made >= 20, 100 * failed / made, 0)', usingMetrics: { failed, made }, label: 'Webhook tries failed (%)', period: window }),
      { threshold: 50, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD },
    );
    alarm(
      'WebhookMessagesErrored',
      "The webhook sender could not handle a delivery's message: no try was made, or it could not be recorded or its next try queued (KMS refusing to open the signing secret, the table or the queue failing). SQS hands the message over again after 3 minutes; after 10 receives it moves to the dead-letter queue, its delivery left retrying: read 'webhook delivery errored' in the sender's log (Cambio-<stage>-JobsWebhookSender), fix, then npm run events:redeliver for what reached the queue.",
      app('WebhookMessagesErrored', 'Sum'),
      { threshold: 1 },
    );
    // A try's wait rides on SQS's delay, 15 minutes at most (functions/adapters/webhooks/
    // sqs-delivery-queue.ts): twice that is a sender not keeping up, whether the metric counts a
    // delayed message's wait or not.
    alarm(
      'WebhookQueueBacklog',
      "The webhook queue's oldest message has waited over 30 minutes (a try waits 15 at most): the sender is not keeping up or not running. Check its Throttles (FunctionsThrottled…, its maximum concurrency: config/capacity.ts WEBHOOK_SENDER_CONCURRENCY), its Errors and its log (Cambio-<stage>-JobsWebhookSender), and WebhookMessagesErrored.",
      props.webhookQueue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      { threshold: 1800, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD },
    );
    // NumberOfMessagesSent counts what is sent to the queue, not what SQS's redrive moves there
    // (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-available-cloudwatch-metrics.html):
    // the sender's own sends, the deliveries it gave up. What the redrive moves, a message the sender
    // failed on 10 times, is alarmed on before it gets there (WebhookMessagesErrored, WebhookQueueBacklog).
    alarm(
      'WebhookDeliveriesGivenUp',
      "Webhook deliveries reached the dead-letter queue in the last 5 minutes: the sender gave each up after its last try failed (an integrator's endpoint failing for about 3 days; their managers are mailed) and sent it there with the reason. It fires on arrivals and is over once none arrives; the queue keeps them 14 days. Cambio's side only when WebhookTriesFailing fires too; once the endpoint answers, npm run events:redeliver sends the company's events again. Messages SQS itself moves there after 10 failed receives are not counted here: WebhookMessagesErrored fires for those.",
      props.webhookDlq.metricNumberOfMessagesSent({ period: PERIOD, statistic: 'Sum' }),
      { threshold: 1 },
    );
  }

  /** Each money route's 5xx answers, as its handler's request line counts them (functions/http/
   * access-log.ts: Requests by route and status class). A handler that timed out or crashed writes
   * no line; Api5xxRate and FunctionsErrors… count those. */
  private moneyRouteAlarms(props: OperationsAlarmsProps, alarm: AlarmFactory): void {
    for (const name of MONEY_ROUTES) {
      const route = ROUTES.find((candidate) => `${candidate.method} ${candidate.path}` === name);
      if (!route) throw new Error(`${name} is no route of functions/routes.ts`);
      const fn = lambdaName(route.handler);
      const answered5xx = new Metric({ namespace: METRIC_NAMESPACE, metricName: 'Requests', dimensionsMap: { service: SERVICE, stage: props.stage, route: name, statusClass: '5xx' }, statistic: 'Sum', period: PERIOD });
      alarm(
        `${fn}5xx`,
        `${name} answered 5xx at least 5 times in two of the last three 5-minute periods: companies cannot move money through it, whatever the API's overall 5xx rate. Read the log of Cambio-<stage>-${fn} (its 'request' lines at ERROR carry the error).`,
        answered5xx,
        { threshold: 5, evaluationPeriods: 3, datapointsToAlarm: 2 },
      );
    }
  }

  /** The dashboard's API, a REST API of its own (lib/dashboard.ts), alarmed on its 5xx rate as the
   * /v1 API is; not on its latency, whose p99 its streamed downloads (seconds each, a year's
   * statement ~8 s) make on a quiet stage: a few of finance's downloads would put it in alarm. */
  private dashboardApiAlarms(props: OperationsAlarmsProps, alarm: AlarmFactory): void {
    alarm(
      'DashboardApi5xxRate',
      "More than 5 % of the dashboard API's requests answered 5xx in two of the last three 5-minute periods (gateway and handlers): people on the dashboard see errors. Read the dashboard functions' logs (their 'request' lines at ERROR) and FunctionsErrors….",
      serverErrorRateOf(props.dashboardApiStage),
      { threshold: 5, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 3, datapointsToAlarm: 2 },
    );
  }

  /**
   * One alarm per group of up to METRICS_PER_ALARM functions, on the sum of their metric: the
   * stack stays far from CloudFormation's 500 resources (one alarm per function and metric would be
   * ~85 of them), and each function still has its own line in the alarm's graph.
   */
  private groupAlarms(
    alarm: AlarmFactory,
    name: string,
    functions: readonly { name: string; fn: IFunction }[],
    metricOf: (fn: IFunction) => IMetric,
    description: (names: string) => string,
  ): void {
    for (let start = 0; start < functions.length; start += METRICS_PER_ALARM) {
      const group = functions.slice(start, start + METRICS_PER_ALARM);
      const usingMetrics = Object.fromEntries(group.map(({ fn }, index) => [`f${index}`, metricOf(fn)]));
      const sum = new MathExpression({
        expression: Object.keys(usingMetrics).map((id) => `FILL(${id}, 0)`).join(' + '),
        usingMetrics,
        label: name,
        period: PERIOD,
      });
      alarm(`${name}${start / METRICS_PER_ALARM + 1}`, description(group.map((entry) => entry.name).join(', ')), sum, { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 });
    }
  }

  /**
   * The platform's own signals (README, Alarms): every function throttled or failing, the API's
   * p99 latency, DynamoDB throttling, and the dead-letter queues of the schedules and the stream.
   * Error alarms skip the functions alarmed by name above, and the authorizers, whose Errors also
   * count every refused credential (the API's AuthorizerErrors metric counts real failures).
   */
  private safeguardAlarms(props: OperationsAlarmsProps, alarm: AlarmFactory, nestedAlarm: AlarmFactory): void {
    const alarmedByName = new Set<IFunction>([props.withdrawalSender, props.depositSweeper, props.reconcile, props.webhookDispatcher, props.financeExportCheck, props.ledgerCsv.fn]);
    const functions = [...props.functions].sort((a, b) => a.name.localeCompare(b.name));
    this.groupAlarms(alarm, 'FunctionsThrottled', functions, (fn) => fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }), (names) =>
      `Lambda throttled one of ${names} in two of the last three 5-minute periods: its reserved concurrency (config/stages.ts safeguards) or the account's quota is exhausted; for a signing job, a run lasted longer than its schedule. The alarm's graph shows which.`,
    );
    const erring = functions.filter(({ fn }) => !alarmedByName.has(fn) && !props.authorizers.includes(fn));
    this.groupAlarms(alarm, 'FunctionsErrors', erring, (fn) => fn.metricErrors({ period: PERIOD, statistic: 'Sum' }), (names) =>
      `One of ${names} threw or timed out in two of the last three 5-minute periods (a handler's own refusals are answers, not errors): the alarm's graph shows which; read its log group.`,
    );
    alarm('ApiLatencyP99', `The API's p99 latency (gateway in to gateway out) was over ${props.apiLatencyP99Ms} ms in three 5-minute periods in a row.`, props.apiStage.metricLatency({ period: PERIOD, statistic: 'p99' }), {
      threshold: props.apiLatencyP99Ms,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });
    const throttleEvents = (dimensionsMap?: Record<string, string>) =>
      new MathExpression({
        expression: 'FILL(reads, 0) + FILL(writes, 0)',
        usingMetrics: {
          reads: props.table.metric('ReadThrottleEvents', { period: PERIOD, statistic: 'Sum', ...(dimensionsMap && { dimensionsMap }) }),
          writes: props.table.metric('WriteThrottleEvents', { period: PERIOD, statistic: 'Sum', ...(dimensionsMap && { dimensionsMap }) }),
        },
        label: 'Table throttle events',
        period: PERIOD,
      });
    alarm('TableThrottled', 'DynamoDB throttled reads or writes on the table (on demand: a burst beyond twice the previous peak, or a hot partition): callers saw retries or 500s.', throttleEvents(), { threshold: 1 });
    // DynamoDB counts an index's throttles under the table and the index together, never in the
    // table's own; GSI1 is where the jobs find their work (transfers confirming, deposits due to expire, addresses to sweep).
    const index = TABLE.gsi1.indexName;
    nestedAlarm(
      `TableThrottled${index}`,
      `DynamoDB throttled reads or writes on the table's index ${index} (a hot partition of the index: one listing written or read in a burst; writes the index throttles are refused on the table too), which TableThrottled does not count: the jobs that find their work there, and the writes, saw retries or 500s.`,
      throttleEvents({ TableName: props.table.tableName, GlobalSecondaryIndexName: index }),
      { threshold: 1 },
    );
    alarm('ScheduleDlqNotEmpty', 'EventBridge could not deliver a scheduled run to its job after retries (or the finance export start after the scheduler\'s retries): read the message for the target and the error.', props.scheduleDlq.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }), {
      threshold: 1,
    });
    alarm('StreamFailuresNotEmpty', 'The webhook dispatcher failed on a stream batch after all its retries; the events stay undispatched until the dispatcher catches up with them, but read the record (shard and sequence numbers) and the dispatcher log.', props.streamFailures.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }), {
      threshold: 1,
    });
  }
}

/** A REST API stage's share of requests answered 5xx, in percent (0 in a period without requests). */
function serverErrorRateOf(stage: Stage): MathExpression {
  return new MathExpression({
    expression: 'IF(requests > 0, 100 * errors / requests, 0)',
    usingMetrics: { requests: stage.metricCount({ period: PERIOD, statistic: 'Sum' }), errors: stage.metricServerError({ period: PERIOD, statistic: 'Sum' }) },
    label: '5xx rate (%)',
    period: PERIOD,
  });
}

