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
  ResponseType,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption, type CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { TABLE } from '../functions/adapters/dynamo/table-definition.ts';
import { GATEWAY_RESPONSES } from '../functions/http/gateway-responses.ts';
import { errorEnvelope } from '../functions/http/envelope.ts';
import { EXPORT_HOUR_UTC } from '../functions/domain/finance-export.ts';
import { checkStageSettings } from '../functions/settings/schema.ts';
import {
  AUTHORIZER,
  DEPOSIT_POLLER,
  DEPOSIT_SWEEPER,
  FINANCE_EXPORT_CHECK,
  LEDGER_DAY_CSV,
  RECONCILE,
  WEBHOOK_DISPATCHER,
  WEBHOOK_SENDER,
  WITHDRAWAL_SENDER,
  lambdaName,
  ROUTES,
  SESSION_AUTHORIZER,
} from '../functions/routes.ts';
import { ApiFunction, retentionDays } from './api-function.ts';
import { ApiCustomDomain } from './custom-domain.ts';
import type { DeploymentSettings } from './deployment-settings.ts';
import { FinanceExport } from './finance-export.ts';
import { accept } from './nag-suppressions.ts';
import { OperationsAlarms } from './observability.ts';
import { FailedInvocations, TableBackup } from './safeguards.ts';
import { CompanyRateLimits } from './rate-limits.ts';
import type { StageConfig } from './stages.ts';
import { ApiFirewall } from './waf.ts';
import { Dashboard } from './dashboard.ts';
import { WebhookSecrets } from './webhook-secrets.ts';

/** A batch's messages are sent in parallel, each given at most the contract's 15 s. */
const WEBHOOK_SENDER_TIMEOUT = Duration.seconds(30);

/**
 * Table actions the jobs need, each a subset of grantReadWriteData: no job scans (but the
 * reconcile job), deletes or batch-writes. Transactions are authorised per item, so PutItem,
 * UpdateItem and ConditionCheckItem cover them.
 */
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];

export interface CambioStackProps extends StackProps {
  config: StageConfig;
  /** Context settings of this deployment (domain, on-call email, backup copy); lib/deployment-settings.ts. */
  settings: DeploymentSettings;
}

/** One signer at a time: two runs of a signing job must never pick the same work or race the hot wallet. */
const SIGNING_JOB_CONCURRENCY = 1;

/**
 * One stage of Cambio: the single table, the REST API (one Lambda per route in functions/routes.ts,
 * all behind the REQUEST authorizer), the gateway responses in the contract's envelope, the webhook
 * delivery queue with its dead-letter queue, and the chain pollers' schedule.
 */
export class CambioStack extends Stack {
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
  private readonly functions: { name: string; fn: ApiFunction }[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: CambioStackProps) {
    super(scope, id, props);
    const { config, settings } = props;
    // A bad figure in lib/stages.ts stops the synth here, naming the stage and the variable.
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
    this.api = this.restApi(config);
    this.customDomain = settings.domain ? new ApiCustomDomain(this, 'CustomDomain', { api: this.api, settings: settings.domain }) : null;
    [this.webhookQueue, this.webhookDlq] = this.webhookQueues();
    const rateLimits = new CompanyRateLimits(this, 'CompanyRateLimits', {
      api: this.api,
      config,
      table: this.table,
      depositAccountXpub: this.depositAccountXpub(config),
      streamFailures: this.failedInvocations.streamFailures,
    });
    this.functions.push({ name: rateLimits.provisioner.node.id, fn: rateLimits.provisioner });

    const { sender, sweeper, reconcile } = this.chainPollers(config);
    const { dispatcher } = this.webhookDelivery(config);
    // The KMS key that seals webhook signing secrets, granted to the create route and the sender.
    WebhookSecrets.forStack(this, config.stage);
    if (config.waf) new ApiFirewall(this, 'ApiFirewall', { stage: this.api.deploymentStage, ratePer5Minutes: config.waf.ratePer5Minutes });
    this.financeExport = new FinanceExport(this, 'FinanceExport', { table: this.table, deadLetterQueue: this.failedInvocations.scheduleDlq });
    this.dashboard = new Dashboard(this, 'Dashboard', { config, table: this.table, depositAccountXpub: this.depositAccountXpub(config) });
    for (const fn of this.dashboard.functions) this.functions.push({ name: fn.node.id, fn });
    const exportCheck = this.financeExportCheck(config);
    const ledgerCsv = this.ledgerCsvJob(config);
    this.operations = new OperationsAlarms(this, 'Operations', {
      stage: config.stage,
      apiStage: this.api.deploymentStage,
      webhookDlq: this.webhookDlq,
      withdrawalSender: sender,
      depositSweeper: sweeper,
      reconcile,
      webhookDispatcher: dispatcher,
      exportScheduleGroup: this.financeExport.scheduleGroup.scheduleGroupName,
      financeExportCheck: exportCheck,
      ledgerCsv,
      alarmEmail: settings.alarmEmail,
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
        // Stage-wide (`/*/*`): every method gets the same steady rate and burst.
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

    const depositAccountXpub = this.depositAccountXpub(config);
    const authorizerFunction = new ApiFunction(this, lambdaName(AUTHORIZER.handler), {
      handler: AUTHORIZER.handler,
      functionName: `${this.stackName}-${lambdaName(AUTHORIZER.handler)}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub,
      timeout: Duration.seconds(5),
      reservedConcurrentExecutions: config.safeguards.apiFunctionConcurrency ?? undefined,
    });
    this.functions.push({ name: lambdaName(AUTHORIZER.handler), fn: authorizerFunction });
    this.table.grantReadData(authorizerFunction);
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: AUTHORIZER.identityHeaders.map((header) => IdentitySource.header(header)),
      resultsCacheTtl: Duration.seconds(config.authorizerCacheSeconds),
    });

    for (const route of ROUTES) {
      const name = lambdaName(route.handler);
      const fn = new ApiFunction(this, name, {
        handler: route.handler,
        functionName: `${this.stackName}-${name}`,
        config,
        tableName: this.table.tableName,
        depositAccountXpub,
        reservedConcurrentExecutions: config.safeguards.apiFunctionConcurrency ?? undefined,
      });
      this.functions.push({ name, fn });
      if (route.tableAccess === 'readWrite') this.table.grantReadWriteData(fn);
      else this.table.grantReadData(fn);
      resourceFor(api.root, route.path).addMethod(route.method, new LambdaIntegration(fn, { proxy: true }), {
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
    if (!config.waf) accept(api.deploymentStage, 'AwsSolutions-APIG3', `WAF is a production stage setting (lib/stages.ts waf); ${config.stage} relies on stage throttling.`);

    // What API Gateway answers by itself also wears the contract's envelope (api-contract.md,
    // Conventions). The templates are plain JSON: nothing in them is VTL.
    for (const spec of GATEWAY_RESPONSES) {
      api.addGatewayResponse(`GatewayResponse${pascal(spec.type)}`, {
        type: ResponseType.of(spec.type),
        statusCode: spec.status === undefined ? undefined : String(spec.status),
        // Header values are mapping expressions: a literal is quoted.
        responseHeaders: { 'Content-Type': "'application/json'", ...Object.fromEntries(Object.entries(spec.headers ?? {}).map(([name, value]) => [name, `'${value}'`])) },
        templates: { 'application/json': errorEnvelope(spec.code, spec.message) },
      });
    }
    return api;
  }

  /** Literal for local runs; an SSM parameter resolved at deploy time for deployed stages. */
  private depositAccountXpub(config: StageConfig): string {
    return 'value' in config.depositAccountXpub
      ? config.depositAccountXpub.value
      : StringParameter.valueForStringParameter(this, config.depositAccountXpub.ssmParameter);
  }

  /**
   * The deposit poller (scan, confirm, expire) on an EventBridge schedule. It reads the chain and
   * writes deposits, ledger entries and events; it holds no key and cannot sign anything.
   */
  private chainPollers(config: StageConfig): { sender: ApiFunction; sweeper: ApiFunction; reconcile: ApiFunction } {
    const name = lambdaName(DEPOSIT_POLLER.handler);
    const poller = new ApiFunction(this, name, {
      handler: DEPOSIT_POLLER.handler,
      functionName: `${this.stackName}-${name}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.seconds(55),
    });
    this.functions.push({ name, fn: poller });
    this.table.grant(poller, ...TABLE_READ, ...TABLE_WRITE);
    const apiKeySecret = config.functionEnvironment.TRONGRID_API_KEY_SECRET;
    if (apiKeySecret) Secret.fromSecretNameV2(this, 'TronGridApiKey', apiKeySecret).grantRead(poller);
    // The hot wallet: a secp256k1 key that never leaves KMS. Only the withdrawal sender and the
    // sweeper (TRX top-ups) may sign with it; no API, authorizer or scanner function (test/infra).
    const hotWallet = new Key(this, 'HotWalletKey', {
      description: `Cambio ${config.stage} hot wallet (TRON, secp256k1)`,
      keySpec: KeySpec.ECC_SECG_P256K1,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
      alias: `alias/cambio-${config.stage}-hot-wallet`,
    });
    const sender = this.signingJob(config, WITHDRAWAL_SENDER.handler, hotWallet);
    const sweeper = this.signingJob(config, DEPOSIT_SWEEPER.handler, hotWallet);
    // The HD account key that signs for deposit addresses: the sweeper's alone.
    const xprvSecret = config.functionEnvironment.SWEEP_ACCOUNT_XPRV_SECRET;
    if (xprvSecret) Secret.fromSecretNameV2(this, 'DepositAccountXprv', xprvSecret).grantRead(sweeper);
    new Rule(this, 'ChainPollerSchedule', {
      description: 'Runs the TRON deposit poller, the withdrawal sender and the deposit sweeper',
      schedule: Schedule.rate(Duration.minutes(config.pollerScheduleMinutes)),
      targets: [poller, sender, sweeper].map((fn) => this.failedInvocations.scheduledTarget(fn, Duration.minutes(config.pollerScheduleMinutes))),
    });
    const reconcile = this.reconcileJob(config, hotWallet);
    return { sender, sweeper, reconcile };
  }

  /**
   * The scheduled reconcile (functions/jobs/reconcile.ts), hourly: one full Scan of the table (no
   * index lists every balance, and Cambio's fee and desk accounts exist only as ledger postings),
   * GSI1 queries for the deposit addresses that may still hold USDT, and the chain balances of
   * those and the hot wallet (on TronGrid one call per address, 4 at a time). It reads the hot
   * wallet's public key to know its address and cannot sign.
   */
  private reconcileJob(config: StageConfig, hotWallet: Key): ApiFunction {
    const name = lambdaName(RECONCILE.handler);
    const job = new ApiFunction(this, name, {
      handler: RECONCILE.handler,
      functionName: `${this.stackName}-${name}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.minutes(5),
    });
    this.functions.push({ name, fn: job });
    job.addEnvironment('SIGNER_KMS_KEY_ID', hotWallet.keyId);
    this.table.grant(job, ...TABLE_READ, 'dynamodb:Scan');
    hotWallet.grant(job, 'kms:GetPublicKey');
    const apiKeySecret = config.functionEnvironment.TRONGRID_API_KEY_SECRET;
    if (apiKeySecret) Secret.fromSecretNameV2(this, `TronGridApiKeyFor${name}`, apiKeySecret).grantRead(job);
    new Rule(this, 'ReconcileSchedule', {
      description: 'Compares the wallets with the ledger',
      schedule: Schedule.rate(Duration.hours(1)),
      targets: [this.failedInvocations.scheduledTarget(job, Duration.hours(1))],
    });
    return job;
  }

  /**
   * The finance export check (functions/jobs/finance-export-check.ts), hourly from an hour after the
   * export's 03:00 UTC start to the end of the UTC day: the scheduler's alarm only sees the export
   * start, this job sees whether it completed. It reads the table's export list and nothing else.
   */
  private financeExportCheck(config: StageConfig): ApiFunction {
    const name = lambdaName(FINANCE_EXPORT_CHECK.handler);
    const job = new ApiFunction(this, name, {
      handler: FINANCE_EXPORT_CHECK.handler,
      functionName: `${this.stackName}-${name}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.seconds(60),
    });
    this.functions.push({ name, fn: job });
    job.addEnvironment('EXPORT_TABLE_ARN', this.table.tableArn);
    job.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:ListExports'], resources: ['*'] }));
    job.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeExport'], resources: [`${this.table.tableArn}/export/*`] }));
    accept(
      job.role!,
      'AwsSolutions-IAM5[Resource::*]',
      "dynamodb:ListExports lists the account's exports: the Service Authorization Reference gives it no required resource type (table is optional), so it is granted on *; the job asks for this table's exports only and it reveals export ARNs and statuses, no data.",
    );
    accept(
      job.role!,
      `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.table.node.defaultChild as CfnTable)}.Arn>/export/*]`,
      "dynamodb:DescribeExport is authorised per export, and DynamoDB names each export (table/<name>/export/<id>); the job may describe this table's exports only.",
    );
    new Rule(this, 'FinanceExportCheckSchedule', {
      description: 'Checks that the daily DynamoDB export for finance completed',
      schedule: Schedule.cron({ minute: '15', hour: `${EXPORT_HOUR_UTC + 1}-23` }),
      targets: [this.failedInvocations.scheduledTarget(job, Duration.hours(1))],
    });
    return job;
  }

  /**
   * The daily ledger CSV job (functions/jobs/ledger-day-csv.ts), started when an export completes
   * (lib/finance-export.ts ledgerJob). It reads the export from S3, never the table. Five minutes
   * of 1 GB: a 200,000-entry export takes seconds (BENCHMARKS.md), memory holds a day's postings.
   */
  private ledgerCsvJob(config: StageConfig): { fn: ApiFunction; failures: Queue } {
    const name = lambdaName(LEDGER_DAY_CSV.handler);
    const job = new ApiFunction(this, name, {
      handler: LEDGER_DAY_CSV.handler,
      functionName: `${this.stackName}-${name}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.minutes(5),
      memorySize: 1024,
    });
    this.functions.push({ name, fn: job });
    return { fn: job, failures: this.financeExport.ledgerJob(job, this.failedInvocations.scheduleDlq) };
  }

  private signingJob(config: StageConfig, handler: string, hotWallet: Key): ApiFunction {
    const name = lambdaName(handler);
    const job = new ApiFunction(this, name, {
      handler,
      functionName: `${this.stackName}-${name}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.seconds(55),
      reservedConcurrentExecutions: SIGNING_JOB_CONCURRENCY,
    });
    this.functions.push({ name, fn: job });
    job.addEnvironment('SIGNER_KMS_KEY_ID', hotWallet.keyId);
    this.table.grant(job, ...TABLE_READ, ...TABLE_WRITE);
    hotWallet.grant(job, 'kms:Sign', 'kms:GetPublicKey');
    const apiKeySecret = config.functionEnvironment.TRONGRID_API_KEY_SECRET;
    if (apiKeySecret) Secret.fromSecretNameV2(this, `TronGridApiKeyFor${name}`, apiKeySecret).grantRead(job);
    return job;
  }

  /**
   * Webhook delivery (functions/domain/webhook-delivery.ts). The dispatcher reads the table's
   * stream, filtered to inserted Event items, and sends one message per delivery to the webhook
   * queue; a failing batch is bisected and retried, and whatever still fails keeps its
   * undispatched mark, which the same function's catch-up pass dispatches every minute. The sender consumes the queue
   * in batches of 10 and reports partial batch failures, so one bad message never re-sends the rest.
   */
  private webhookDelivery(config: StageConfig): { dispatcher: ApiFunction } {
    const queueEnvironment = { WEBHOOK_QUEUE_URL: this.webhookQueue.queueUrl, WEBHOOK_DLQ_URL: this.webhookDlq.queueUrl };
    const dispatcherName = lambdaName(WEBHOOK_DISPATCHER.handler);
    const dispatcher = new ApiFunction(this, dispatcherName, {
      handler: WEBHOOK_DISPATCHER.handler,
      functionName: `${this.stackName}-${dispatcherName}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: Duration.seconds(60),
    });
    this.functions.push({ name: dispatcherName, fn: dispatcher });
    for (const [name, value] of Object.entries(queueEnvironment)) dispatcher.addEnvironment(name, value);
    // Reads webhooks and the undispatched index; its only write clears an event's mark.
    this.table.grant(dispatcher, ...TABLE_READ, 'dynamodb:UpdateItem');
    this.webhookQueue.grantSendMessages(dispatcher);
    accept(dispatcher.role!, 'AwsSolutions-IAM5[Resource::*]', 'dynamodb:ListStreams, which the stream event source needs, has no resource-level permission.');
    dispatcher.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        retryAttempts: 10,
        // A batch still failing after its retries is recorded here (its events keep their
        // undispatched mark, so the catch-up pass below delivers them).
        onFailure: new SqsDlq(this.failedInvocations.streamFailures),
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual('Event') } } } }),
        ],
      }),
    );
    new Rule(this, 'WebhookCatchUpSchedule', {
      description: 'Dispatches webhook events the stream did not (failed batches, redeliveries)',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [this.failedInvocations.scheduledTarget(dispatcher, Duration.minutes(1))],
    });

    const senderName = lambdaName(WEBHOOK_SENDER.handler);
    const sender = new ApiFunction(this, senderName, {
      handler: WEBHOOK_SENDER.handler,
      functionName: `${this.stackName}-${senderName}`,
      config,
      tableName: this.table.tableName,
      depositAccountXpub: this.depositAccountXpub(config),
      timeout: WEBHOOK_SENDER_TIMEOUT,
    });
    this.functions.push({ name: senderName, fn: sender });
    for (const [name, value] of Object.entries(queueEnvironment)) sender.addEnvironment(name, value);
    // The tracer would record each POST's full URL (an integrator's may carry a token) and add an
    // X-Amzn-Trace-Id header to it; the sender's trace keeps its AWS calls only.
    sender.addEnvironment('POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS', 'false');
    // Reads event, webhook and delivery; writes attempts and disables a webhook on 410 (updates only).
    this.table.grant(sender, ...TABLE_READ, 'dynamodb:UpdateItem');
    this.webhookQueue.grantSendMessages(sender);
    this.webhookDlq.grantSendMessages(sender);
    sender.addEventSource(new SqsEventSource(this.webhookQueue, { batchSize: 10, reportBatchItemFailures: true }));
    return { dispatcher };
  }

  private webhookQueues(): [Queue, Queue] {
    const dlq = new Queue(this, 'WebhookDlq', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new Queue(this, 'WebhookQueue', {
      // The contract's retry schedule spans about 3 days (5 s … 24 h); the 4-day default would be
      // too close, so messages live as long as SQS allows.
      retentionPeriod: Duration.days(14),
      // Six times the sender's timeout, as AWS advises for an SQS event source: a batch still being
      // sent is never shown to a second sender.
      visibilityTimeout: Duration.seconds(WEBHOOK_SENDER_TIMEOUT.toSeconds() * 6),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Each try of a delivery is a message of its own (the sender queues the next one), and the
      // sender itself sends a delivery's last failed try here. The redrive catches the rest: a
      // message the sender could not process (store or queue failing) ten times over.
      deadLetterQueue: { queue: dlq, maxReceiveCount: 10 },
    });
    return [queue, dlq];
  }
}

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
