import { CfnOutput, Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  RequestAuthorizer,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption, type CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { TABLE } from '../functions/adapters/dynamo/table-definition.ts';
import { GATEWAY_RESPONSES } from '../functions/http/gateway-responses.ts';
import { checkStageSettings } from '../functions/settings/schema.ts';
import { SCREENING_REFRESH_TIMEOUT_MS } from '../functions/screening/screening-refresh.ts';
import { AUTHORIZER, lambdaName, ROUTES, SESSION_AUTHORIZER, JOBS } from '../functions/routes.ts';
import { CambioFunction, retentionDays, type Binder } from './api-function.ts';
import { TABLE_READ, TABLE_WRITE, keyUseRecording, queueSend, tableActions, tableRead, tableReadWrite, value } from './binders.ts';
import { ApiCustomDomain } from './custom-domain.ts';
import { answerInTheEnvelope } from './gateway-responses.ts';
import type { DeploymentSettings } from './deployment-settings.ts';
import { FinanceExport } from './finance-export.ts';
import { accept } from './nag-suppressions.ts';
import { OperationsAlarms } from './observability.ts';
import { FailedInvocations, TableBackup } from './safeguards.ts';
import { CompanyRateLimits } from './rate-limits.ts';
import type { StageConfig } from '../config/stages.ts';
import { ApiFirewall } from './waf.ts';
import { Dashboard } from './dashboard.ts';
import { CREATE_WEBHOOK_HANDLER, WebhookSecrets } from './webhook-secrets.ts';
import type { CambioFunctionProps } from './api-function.ts';
import { chainJobs } from './chain-jobs.ts';
import { destinationReadsOf } from './networks/registry.ts';
import { financeExportCheck, ledgerCsvJob } from './finance-jobs.ts';
import type { StageScope } from './stage-scope.ts';
import { webhookDelivery, webhookQueues as createWebhookQueues } from './webhook-delivery.ts';

export interface CambioStackProps extends StackProps {
  config: StageConfig;
  /** Context settings of this deployment (domain, on-call email, backup copy); lib/deployment-settings.ts. */
  settings: DeploymentSettings;
}

/**
 * One stage of Cambio: the single table, the REST API (one Lambda per route in functions/routes.ts,
 * all behind the REQUEST authorizer), the gateway responses in the contract's envelope, the webhook
 * delivery queue with its dead-letter queue, and the chain pollers' schedule.
 */
export class CambioStack extends Stack implements StageScope {
  readonly table: Table;
  readonly api: RestApi;
  /** Set when context domainName and certificateArn are (lib/deployment-settings.ts). */
  readonly customDomain: ApiCustomDomain | null;
  readonly webhookQueue: Queue;
  readonly webhookDlq: Queue;
  readonly operations: OperationsAlarms;
  readonly financeExport: FinanceExport;
  readonly failedInvocations: FailedInvocations;
  readonly backup: TableBackup;
  /** Every function with its Lambda name, for the per-function alarms. */
  private readonly functions: { name: string; fn: CambioFunction }[] = [];
  readonly webhookSecrets: WebhookSecrets;
  readonly config: StageConfig;
  private readonly xpub: string;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: CambioStackProps) {
    super(scope, id, props);
    const { config, settings } = props;
    // A bad figure in config/stages.ts stops the synth here, naming the stage and the variable.
    checkStageSettings(config.stage, config.functionEnvironment);
    Tags.of(this).add('Project', 'Cambio');
    Tags.of(this).add('Stage', config.stage);

    this.table = this.singleTable(config);
    this.backup = new TableBackup(this, 'TableBackup', {
      table: this.table,
      retentionDays: config.safeguards.backupRetentionDays,
      copyVaultArn: settings.backupCopyVaultArn,
      protectData: config.protectData,
    });
    this.failedInvocations = new FailedInvocations(this, 'FailedInvocations');
    this.config = config;
    this.xpub = this.depositAccountXpub(config);
    // The KMS key that seals webhook signing secrets, bound to the create route and the sender.
    this.webhookSecrets = new WebhookSecrets(this, 'WebhookSecrets', { stage: config.stage });
    ({ queue: this.webhookQueue, dlq: this.webhookDlq } = createWebhookQueues(this));
    this.api = this.restApi(config);
    this.customDomain = settings.domain ? new ApiCustomDomain(this, 'CustomDomain', { api: this.api, settings: settings.domain }) : null;
    const rateLimits = new CompanyRateLimits(this, 'CompanyRateLimits', {
      api: this.api,
      config,
      table: this.table,
      depositAccountXpub: this.xpub,
      streamFailures: this.failedInvocations.streamFailures,
    });
    this.functions.push({ name: rateLimits.provisioner.node.id, fn: rateLimits.provisioner });

    const { sender, sweeper, reconcile, networks } = chainJobs(this, config);
    const { dispatcher } = webhookDelivery(this, { queue: this.webhookQueue, dlq: this.webhookDlq }, this.webhookSecrets, settings.mailFrom, config.capacity.webhookSenderConcurrency);
    if (config.waf) new ApiFirewall(this, 'ApiFirewall', { stage: this.api.deploymentStage, ratePer5Minutes: config.waf.ratePer5Minutes, environment: config.environment });
    this.financeExport = new FinanceExport(this, 'FinanceExport', { table: this.table, deadLetterQueue: this.failedInvocations.scheduleDlq });
    this.dashboard = new Dashboard(this, 'Dashboard', {
      config,
      domain: settings.dashboardDomain,
      webAclArn: settings.dashboardWebAclArn,
      table: this.table,
      depositAccountXpub: this.xpub,
      // Send test event and Resend queue to one endpoint; Add endpoint and Roll secret seal new secrets.
      webhookBinders: [this.webhookSecrets.sealingNew, queueSend('WEBHOOK_QUEUE_URL', this.webhookQueue), value('WEBHOOK_DLQ_URL', this.webhookDlq.queueUrl)],
      // The sessions' Cognito tokens are sealed at rest with the same key, under a purpose of their own.
      sessionTokens: this.webhookSecrets.sessionTokens,
      mailFrom: settings.mailFrom,
    });
    for (const fn of this.dashboard.functions) this.functions.push({ name: fn.node.id, fn });
    const exportCheck = financeExportCheck(this);
    const ledgerCsv = ledgerCsvJob(this, this.financeExport);
    this.screeningRefreshJob();
    this.operations = new OperationsAlarms(this, 'Operations', {
      stage: config.stage,
      apiStage: this.api.deploymentStage,
      dashboardApiStage: this.dashboard.api.deploymentStage,
      webhookQueue: this.webhookQueue,
      webhookDlq: this.webhookDlq,
      withdrawalSender: sender,
      depositSweeper: sweeper,
      networks,
      reconcile,
      webhookDispatcher: dispatcher,
      exportScheduleGroup: this.financeExport.scheduleGroup.scheduleGroupName,
      financeExportCheck: exportCheck,
      ledgerCsv,
      alarmEmail: settings.alarmEmail,
      mailFrom: settings.mailFrom,
      authorizers: this.functions.filter(({ name }) => name === lambdaName(AUTHORIZER.handler) || name === lambdaName(SESSION_AUTHORIZER.handler)).map(({ fn }) => fn),
      functions: this.functions,
      table: this.table,
      apiLatencyP99Ms: config.safeguards.apiLatencyP99Ms,
      scheduleDlq: this.failedInvocations.scheduleDlq,
      streamFailures: this.failedInvocations.streamFailures,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.customDomain?.url ?? this.api.urlForPath('/v1'), description: 'Base URL of the /v1 API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhookQueue.queueUrl });
    new CfnOutput(this, 'WebhookDlqUrl', { value: this.webhookDlq.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.operations.topic.topicArn, description: 'Every alarm notifies this topic: subscribe on-call to it' });
    new CfnOutput(this, 'DashboardName', { value: this.stackName, description: 'CloudWatch dashboard' });
    new CfnOutput(this, 'ExportBucketName', { value: this.financeExport.bucket.bucketName, description: 'Daily DynamoDB exports (npm run ledger:csv) and the daily ledger files, ledger/YYYY/MM/DD.csv' });
    new CfnOutput(this, 'FinanceGlueDatabase', { value: this.financeExport.glueDatabase.ref, description: 'Glue database of the ledger_postings table (Athena)' });
    new CfnOutput(this, 'FinanceAthenaWorkGroup', { value: this.financeExport.workGroup.ref, description: "Finance's Athena workgroup (results encrypted in the export bucket)" });
    new CfnOutput(this, 'FinanceQueryPolicyArn', { value: this.financeExport.queryPolicy.managedPolicyArn, description: 'Attach to a finance role or user: Athena over the ledger, read only' });
    new CfnOutput(this, 'LedgerCsvFunctionName', { value: ledgerCsv.fn.functionName, description: 'Re-runs a day: aws lambda invoke (README, Finance)' });
    accept(this, 'AwsSolutions-L1', 'Every function runs nodejs22.x, the runtime the bundles target (esbuild node22) and the project pins (README, Node version); a newer runtime is a deliberate upgrade, not a drift.');
    accept(
      this,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.table.node.defaultChild as CfnTable)}.Arn>/index/*]`,
      "Table grants cover the table's indexes as index/*; the table has one, GSI1, which the access patterns need (docs/data-model.md). The actions are per function (functions/routes.ts tableAccess, TABLE_READ/TABLE_WRITE for the jobs).",
    );
  }

  private singleTable(config: StageConfig): Table {
    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The webhook dispatcher turns event items written with each state change into deliveries.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: config.protectData,
      removalPolicy: config.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    table.addGlobalSecondaryIndex({
      indexName: TABLE.gsi1.indexName,
      partitionKey: { name: TABLE.gsi1.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.gsi1.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    return table;
  }

  private restApi(config: StageConfig): RestApi {
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: retentionDays(config.logRetentionDays),
      removalPolicy: config.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const api = new RestApi(this, 'Api', {
      restApiName: `cambio-${config.stage}`,
      description: `Cambio /v1 API (${config.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // The authorizer names each request's usage plan key: per-company limits (lib/rate-limits.ts).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Access logs need the account-level CloudWatch role; API Gateway has one per account and region.
      cloudWatchRole: true,
      deployOptions: {
        stageName: config.stage,
        // Written as MethodSettings `/*/*`: API Gateway gives each method a bucket of its own at this
        // rate and burst, and none holds the stage's sum (docs/capacity.md, "What a stage admits").
        throttlingRateLimit: config.throttle.rateLimit,
        throttlingBurstLimit: config.throttle.burstLimit,
        // X-Ray: each request's trace starts here and follows into the authorizer and the handler.
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.resourcePath',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            companyId: '$context.authorizer.companyId',
            errorType: '$context.error.responseType',
            authorizerError: '$context.authorizer.error',
            integrationError: '$context.integration.error',
            xrayTraceId: '$context.xrayTraceId',
          }),
        ),
      },
    });

    const authorizerFunction = this.stageFunction(AUTHORIZER.handler, {
      bind: [tableRead(this.table), keyUseRecording(this.table)],
      timeout: Duration.seconds(5),
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: AUTHORIZER.identityHeaders.map((header) => IdentitySource.header(header)),
      resultsCacheTtl: Duration.seconds(config.authorizerCacheSeconds),
    });

    for (const route of ROUTES) {
      const fn = this.stageFunction(route.handler, {
        // No reserved concurrency (docs/capacity.md): a reservation would answer a burst past it 500,
        // not 429; what the throttles admit is bounded by the companies' plans, a bucket per method
        // and the account's rate, and the one job that grows with load, the webhook sender, has a ceiling.
        bind: [route.tableAccess === 'readWrite' ? tableReadWrite(this.table) : tableRead(this.table), ...(ROUTE_BINDERS[route.handler]?.(this) ?? [])],
      });
      // One invoke permission, the stage's: no second one for the API Gateway console's test-invoke
      // stage (allowTestInvoke), a grant nothing uses, on money routes, at 15 of the stack's 500
      // resources (docs/capacity.md, "The stack's size").
      resourceFor(api.root, route.path).addMethod(route.method, new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false }), {
        authorizer,
        authorizationType: AuthorizationType.CUSTOM,
        apiKeyRequired: true,
      });
    }

    accept(api, 'AwsSolutions-APIG2', "Requests are validated by each handler (valibot, functions/http/route.ts) so that refusals carry the contract's envelope, code and field paths; a gateway request validator would answer in its own format.");
    accept(api, 'AwsSolutions-COG4', 'Companies authenticate with X-Api-Key and X-Api-Secret as the contract defines, checked by the REQUEST Lambda authorizer on every method; there are no Cognito users.');
    accept(
      api.node.findChild('CloudWatchRole'),
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      "API Gateway's account-level role for writing access logs; AWS's managed policy is the documented one for it.",
    );
    accept(
      api.deploymentStage,
      'AwsSolutions-APIG6',
      'Execution logs would record request headers, X-Api-Secret among them; the stage keeps access logs (request id, status, latency, company, authorizer and integration errors) and each handler logs one line.',
    );
    if (!config.waf) accept(api.deploymentStage, 'AwsSolutions-APIG3', `WAF is a deployed stage's setting (config/stages.ts waf); ${config.stage} relies on stage throttling.`);

    answerInTheEnvelope(api, GATEWAY_RESPONSES, (spec) => `GatewayResponse${pascal(spec.type)}`);
    return api;
  }

  /** Literal for local runs; an SSM parameter resolved at deploy time for deployed stages. */
  private depositAccountXpub(config: StageConfig): string {
    return 'value' in config.depositAccountXpub
      ? config.depositAccountXpub.value
      : StringParameter.valueForStringParameter(this, config.depositAccountXpub.ssmParameter);
  }

  /**
   * The screening refresh (functions/handlers/jobs/screening-refresh.ts, README "Screening"): daily
   * it downloads OFAC's sdn_advanced.xml (~100 MB, streamed: a gigabyte of memory for the CPU that
   * parses it within minutes) from the stage's SCREENING_LIST_URL and imports it into the table's
   * screening list; hourly it publishes the list's age, which the ScreeningListAge alarm watches. It
   * reads and writes the screening items (Query, GetItem, UpdateItem, and PutItem in transactions:
   * the entries it lists for the first time, each only where none is, and its audit entry); it never
   * deletes (a delisting updates its entry) or scans.
   */
  private screeningRefreshJob(): void {
    const job = this.stageFunction(JOBS.screeningRefresh.handler, {
      bind: [tableActions(this.table, ...TABLE_READ, ...TABLE_WRITE)],
      timeout: Duration.millis(SCREENING_REFRESH_TIMEOUT_MS),
      memorySize: 1024,
    });
    // After OFAC's business day (it publishes in US hours): a listing is screened by the next morning.
    new Rule(this, 'ScreeningRefreshSchedule', {
      description: "Downloads OFAC's SDN list into the screening list",
      schedule: Schedule.cron({ minute: '30', hour: '5' }),
      targets: [this.failedInvocations.scheduledTarget(job, Duration.hours(1), { refresh: true })],
    });
    new Rule(this, 'ScreeningListAgeSchedule', {
      description: "Reports the screening list's age (and imports it if the stage never has)",
      schedule: Schedule.rate(Duration.hours(1)),
      targets: [this.failedInvocations.scheduledTarget(job, Duration.hours(1))],
    });
  }

  /** A function of this stage, on the stage's figures and xpub, listed for the per-function alarms. */
  stageFunction(handler: string, props: Omit<CambioFunctionProps, 'handler' | 'config' | 'depositAccountXpub'>): CambioFunction {
    const fn = new CambioFunction(this, { handler, config: this.config, depositAccountXpub: this.xpub, ...props });
    this.functions.push({ name: fn.node.id, fn });
    return fn;
  }
}

/** What a route binds beyond its table access (functions/routes.ts): a destination or split some
 * network reads on the chain (a Solana token account: functions/networks/destination-registry.ts). */
const ROUTE_BINDERS: Partial<Record<string, (stack: CambioStack) => Binder[]>> = {
  [CREATE_WEBHOOK_HANDLER]: (stack) => [stack.webhookSecrets.sealing],
  'withdrawals/create-withdrawal': (stack) => destinationReadsOf(stack.config),
  'deposits/create-deposit': (stack) => destinationReadsOf(stack.config),
};

/** `/v1/deposits/{id}` → the resource for it, creating each missing segment once. */
function resourceFor(root: IResource, path: string): IResource {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .reduce<IResource>((parent, segment) => parent.getResource(segment) ?? parent.addResource(segment), root);
}

function pascal(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
