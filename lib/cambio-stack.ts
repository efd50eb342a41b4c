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
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Key, KeySpec, KeyUsage, type KeyProps } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { TABLE } from '../functions/adapters/dynamo/table-definition.ts';
import { GATEWAY_RESPONSES } from '../functions/http/gateway-responses.ts';
import { errorEnvelope } from '../functions/http/envelope.ts';
import { EXPORT_HOUR_UTC } from '../functions/ledger/finance-export.ts';
import { checkStageSettings } from '../functions/settings/schema.ts';
import { AUTHORIZER, lambdaName, ROUTES, SESSION_AUTHORIZER, JOBS } from '../functions/routes.ts';
import { CambioFunction, retentionDays, type Binder } from './api-function.ts';
import { TABLE_READ, TABLE_WRITE, evmHotWalletKeys, hotWalletAddress, hotWalletSigning, mailSending, queueSend, secretRead, secretsNamedIn, tableActions, tableExports, tableRead, tableReadWrite, value } from './binders.ts';
import { EVM_NETWORK_NAMES, EVM_STAGE_SETTINGS, type EvmNetworkName } from '../functions/networks/evm/settings.ts';
import * as v from 'valibot';
import { ApiCustomDomain } from './custom-domain.ts';
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

/** A batch's messages are sent in parallel, each given at most the contract's 15 s. */
const WEBHOOK_SENDER_TIMEOUT = Duration.seconds(30);

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
  private readonly functions: { name: string; fn: CambioFunction }[] = [];
  /** The hot wallet: a secp256k1 key that never leaves KMS, bound to the jobs that sign with it or read its address. */
  readonly hotWallet: Key;
  readonly webhookSecrets: WebhookSecrets;
  private readonly config: StageConfig;
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
    this.hotWallet = this.hotWalletKey(config);
    // The KMS key that seals webhook signing secrets, bound to the create route and the sender.
    this.webhookSecrets = new WebhookSecrets(this, 'WebhookSecrets', { stage: config.stage });
    [this.webhookQueue, this.webhookDlq] = this.webhookQueues();
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

    const { sender, sweeper, reconcile, evmNetworks } = this.chainPollers(config);
    const { dispatcher } = this.webhookDelivery(settings.mailFrom);
    if (config.waf) new ApiFirewall(this, 'ApiFirewall', { stage: this.api.deploymentStage, ratePer5Minutes: config.waf.ratePer5Minutes });
    this.financeExport = new FinanceExport(this, 'FinanceExport', { table: this.table, deadLetterQueue: this.failedInvocations.scheduleDlq });
    this.dashboard = new Dashboard(this, 'Dashboard', {
      config,
      domain: settings.dashboardDomain,
      webAclArn: settings.dashboardWebAclArn,
      table: this.table,
      depositAccountXpub: this.xpub,
      // Send test event and Resend queue to one endpoint; Add endpoint and Roll secret seal new secrets.
      webhookBinders: [this.webhookSecrets.sealingNew, queueSend('WEBHOOK_QUEUE_URL', this.webhookQueue), value('WEBHOOK_DLQ_URL', this.webhookDlq.queueUrl)],
      mailFrom: settings.mailFrom,
    });
    for (const fn of this.dashboard.functions) this.functions.push({ name: fn.node.id, fn });
    const exportCheck = this.financeExportCheck();
    const ledgerCsv = this.ledgerCsvJob();
    this.screeningRefreshJob();
    this.operations = new OperationsAlarms(this, 'Operations', {
      stage: config.stage,
      apiStage: this.api.deploymentStage,
      webhookDlq: this.webhookDlq,
      withdrawalSender: sender,
      depositSweeper: sweeper,
      evmNetworks,
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

    const authorizerFunction = this.fn(AUTHORIZER.handler, {
      bind: [tableRead(this.table)],
      timeout: Duration.seconds(5),
      reservedConcurrentExecutions: config.safeguards.apiFunctionConcurrency ?? undefined,
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: AUTHORIZER.identityHeaders.map((header) => IdentitySource.header(header)),
      resultsCacheTtl: Duration.seconds(config.authorizerCacheSeconds),
    });

    for (const route of ROUTES) {
      const fn = this.fn(route.handler, {
        bind: [route.tableAccess === 'readWrite' ? tableReadWrite(this.table) : tableRead(this.table), ...(ROUTE_BINDERS[route.handler]?.(this) ?? [])],
        reservedConcurrentExecutions: config.safeguards.apiFunctionConcurrency ?? undefined,
      });
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
    if (!config.waf) accept(api.deploymentStage, 'AwsSolutions-APIG3', `WAF is a production stage setting (config/stages.ts waf); ${config.stage} relies on stage throttling.`);

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
   * The chain jobs on one EventBridge schedule: the deposit poller (scan, confirm, expire), which
   * reads the chain and writes deposits, ledger entries and events but holds no key and cannot sign
   * anything; the withdrawal sender and the deposit sweeper, the only signers; and the hourly
   * reconcile.
   */
  private chainPollers(config: StageConfig): { sender: CambioFunction; sweeper: CambioFunction; reconcile: CambioFunction; evmNetworks: EvmNetworkName[] } {
    const tronGridKey = secretRead('TRONGRID_API_KEY_SECRET', config.functionEnvironment.TRONGRID_API_KEY_SECRET);
    const evmNetworks = openEvmNetworks(config);
    const rpcUrlSecrets = secretsNamedIn('EVM_NETWORKS', Object.values(evmNetworks).flatMap((network) => (network.rpcUrlSecret ? [network.rpcUrlSecret] : [])));
    const poller = this.fn(JOBS.depositPoller.handler, { bind: [tableActions(this.table, ...TABLE_READ, ...TABLE_WRITE), tronGridKey, rpcUrlSecrets], timeout: Duration.seconds(55) });
    // One schedule per EVM network the stage opens, its input naming the network (the TRON poller
    // runs on the chain jobs' schedule below, with no input).
    for (const [name, network] of Object.entries(evmNetworks)) {
      new Rule(this, `DepositPoller${name[0]!.toUpperCase()}${name.slice(1)}Schedule`, {
        description: `Runs the ${name} deposit poller`,
        schedule: Schedule.rate(Duration.minutes(network.scanEveryMinutes)),
        targets: [this.failedInvocations.scheduledTarget(poller, Duration.minutes(network.scanEveryMinutes), { network: name })],
      });
    }
    // Only the withdrawal sender and the sweeper (TRX top-ups) may sign with the hot wallet; no API,
    // authorizer or scanner function (test/infra). One run at a time: two runs of a signing job must
    // never pick the same work or race the hot wallet.
    const signingJob = (handler: typeof JOBS.withdrawalSender.handler | typeof JOBS.depositSweeper.handler, ...more: Binder[]) =>
      this.fn(handler, {
        bind: [tableActions(this.table, ...TABLE_READ, ...TABLE_WRITE), hotWalletSigning(this.hotWallet), tronGridKey, ...more],
        timeout: Duration.seconds(55),
        reservedConcurrentExecutions: SIGNING_JOB_CONCURRENCY,
      });
    // The sender and the sweeper sign on each open EVM network too, each network with its own key,
    // and read the node's URL where a secret holds it. The HD account key that signs for TRON
    // deposit addresses: the sweeper's alone.
    const evmHotWallets = this.evmHotWalletKeyPerNetwork(config);
    const openHotWallets = Object.fromEntries(Object.keys(evmNetworks).map((name) => [name, evmHotWallets[name as EvmNetworkName]]));
    const sender = signingJob(JOBS.withdrawalSender.handler, rpcUrlSecrets, evmHotWalletKeys(openHotWallets, 'kms:Sign', 'kms:GetPublicKey'));
    const sweeper = signingJob(
      JOBS.depositSweeper.handler,
      secretRead('SWEEP_ACCOUNT_XPRV_SECRET', config.functionEnvironment.SWEEP_ACCOUNT_XPRV_SECRET),
      rpcUrlSecrets,
      evmHotWalletKeys(openHotWallets, 'kms:Sign', 'kms:GetPublicKey'),
    );
    for (const [fn, job] of [
      [sender, 'WithdrawalSender'],
      [sweeper, 'DepositSweeper'],
    ] as const) {
      for (const name of Object.keys(evmNetworks)) {
        new Rule(this, `${job}${name[0]!.toUpperCase()}${name.slice(1)}Schedule`, {
          description: `Runs the ${name} ${job === 'WithdrawalSender' ? 'withdrawal sender' : 'deposit sweeper'}`,
          schedule: Schedule.rate(Duration.minutes(config.pollerScheduleMinutes)),
          targets: [this.failedInvocations.scheduledTarget(fn, Duration.minutes(config.pollerScheduleMinutes), { network: name })],
        });
      }
    }
    new Rule(this, 'ChainPollerSchedule', {
      description: 'Runs the TRON deposit poller, the withdrawal sender and the deposit sweeper',
      schedule: Schedule.rate(Duration.minutes(config.pollerScheduleMinutes)),
      targets: [poller, sender, sweeper].map((fn) => this.failedInvocations.scheduledTarget(fn, Duration.minutes(config.pollerScheduleMinutes))),
    });
    const reconcile = this.reconcileJob(tronGridKey, rpcUrlSecrets);
    return { sender, sweeper, reconcile, evmNetworks: Object.keys(evmNetworks) as EvmNetworkName[] };
  }

  /** Made once for the stage, not by the jobs that use it (lib/binders.ts hotWalletSigning, hotWalletAddress). */
  private hotWalletKey(config: StageConfig): Key {
    return new Key(this, 'HotWalletKey', hotWalletKeyProps(`Cambio ${config.stage} hot wallet (TRON, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet`));
  }

  /**
   * The hot wallet of each EVM network: a secp256k1 key of its own (its address the keccak of the
   * public key), so a key's loss or grant touches one chain. Made for every EVM network, open or
   * not: a network's forwarder factory must be deployed owned by its hot wallet's address before
   * the stage can open it (EVM_NETWORKS names the factory), so the key has to exist first
   * (npm run evm:deploy-factory, docs/evm-networks.md). Only an open network's key is granted.
   */
  private evmHotWalletKeyPerNetwork(config: StageConfig): Record<EvmNetworkName, Key> {
    return Object.fromEntries(
      EVM_NETWORK_NAMES.map((network) => [
        network,
        new Key(this, `HotWalletKey${network[0]!.toUpperCase()}${network.slice(1)}`, hotWalletKeyProps(`Cambio ${config.stage} hot wallet (${network}, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet-${network}`)),
      ]),
    ) as Record<EvmNetworkName, Key>;
  }

  /**
   * The scheduled reconcile (functions/handlers/jobs/reconcile.ts), hourly: one full Scan of the table (no
   * index lists every balance, and Cambio's fee and desk accounts exist only as ledger postings),
   * GSI1 queries for the deposit addresses that may still hold USDT, and the chain balances of
   * those and the hot wallet (on TronGrid one call per address, 4 at a time), on TRON and on each
   * open EVM network (whose node URL it reads where a secret holds it). It reads the hot wallet's
   * public key to know its addresses and cannot sign.
   */
  private reconcileJob(tronGridKey: Binder, rpcUrlSecrets: Binder): CambioFunction {
    const job = this.fn(JOBS.reconcile.handler, {
      bind: [tableActions(this.table, ...TABLE_READ, 'dynamodb:Scan'), hotWalletAddress(this.hotWallet), tronGridKey, rpcUrlSecrets],
      timeout: Duration.minutes(5),
    });
    new Rule(this, 'ReconcileSchedule', {
      description: 'Compares the wallets with the ledger',
      schedule: Schedule.rate(Duration.hours(1)),
      targets: [this.failedInvocations.scheduledTarget(job, Duration.hours(1))],
    });
    return job;
  }

  /**
   * The finance export check (functions/handlers/jobs/finance-export-check.ts), hourly from an hour after the
   * export's 03:00 UTC start to the end of the UTC day: the scheduler's alarm only sees the export
   * start, this job sees whether it completed. It reads the table's export list and nothing else.
   */
  private financeExportCheck(): CambioFunction {
    const job = this.fn(JOBS.financeExportCheck.handler, { bind: [tableExports(this.table)], timeout: Duration.seconds(60) });
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
   * The daily ledger CSV job (functions/handlers/jobs/ledger-day-csv.ts), started when an export completes
   * (lib/finance-export.ts ledgerJob). It reads the export from S3, never the table. Five minutes
   * of 1 GB: a 200,000-entry export takes seconds (BENCHMARKS.md), memory holds a day's postings.
   * It carries its own AWS SDK: its multipart upload is lib-storage's, which Lambda does not list
   * among what its runtime provides, and finance's daily file must not hang on that.
   */
  private ledgerCsvJob(): { fn: CambioFunction; failures: Queue } {
    const job = this.fn(JOBS.ledgerDayCsv.handler, { timeout: Duration.minutes(5), memorySize: 1024, bundlesAwsSdk: true });
    return { fn: job, failures: this.financeExport.ledgerJob(job, this.failedInvocations.scheduleDlq) };
  }

  /**
   * The screening refresh (functions/handlers/jobs/screening-refresh.ts, README "Screening"): daily
   * it downloads OFAC's sdn_advanced.xml (~100 MB, streamed: a gigabyte of memory for the CPU that
   * parses it within minutes) from the stage's SCREENING_LIST_URL and imports it into the table's
   * screening list; hourly it publishes the list's age, which the ScreeningListAge alarm watches. It
   * reads and writes the screening items (Query, GetItem, UpdateItem, PutItem in a transaction with
   * its audit entry, and BatchWriteItem for the entries it lists for the first time); it never
   * deletes (a delisting updates its entry) or scans.
   */
  private screeningRefreshJob(): void {
    const job = this.fn(JOBS.screeningRefresh.handler, {
      bind: [tableActions(this.table, ...TABLE_READ, ...TABLE_WRITE, 'dynamodb:BatchWriteItem')],
      timeout: Duration.minutes(5),
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
  private fn(handler: string, props: Omit<CambioFunctionProps, 'handler' | 'config' | 'depositAccountXpub'>): CambioFunction {
    const fn = new CambioFunction(this, { handler, config: this.config, depositAccountXpub: this.xpub, ...props });
    this.functions.push({ name: fn.node.id, fn });
    return fn;
  }

  /**
   * Webhook delivery (functions/webhooks/webhook-delivery.ts). The dispatcher reads the table's
   * stream, filtered to inserted Event items, and sends one message per delivery to the webhook
   * queue; a failing batch is bisected and retried, and whatever still fails keeps its
   * undispatched mark, which the same function's catch-up pass dispatches every minute. The sender consumes the queue
   * in batches of 10 and reports partial batch failures, so one bad message never re-sends the rest.
   */
  /** `mailFrom` (context): the sender also mails an endpoint's managers when it gives up on an event. */
  private webhookDelivery(mailFrom: string | null): { dispatcher: CambioFunction } {
    const dispatcher = this.fn(JOBS.webhookDispatcher.handler, {
      // Reads webhooks and the undispatched index; its only write clears an event's mark. It sends
      // to the queue; the dead-letter queue's URL names it (the sender sends there).
      bind: [tableActions(this.table, ...TABLE_READ, 'dynamodb:UpdateItem'), queueSend('WEBHOOK_QUEUE_URL', this.webhookQueue), value('WEBHOOK_DLQ_URL', this.webhookDlq.queueUrl)],
      timeout: Duration.seconds(60),
    });
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

    const sender = this.fn(JOBS.webhookSender.handler, {
      bind: [
        // Reads event, webhook and delivery; writes attempts and disables a webhook on 410 (updates
        // only); where it mails, it also puts the day's alert of an endpoint (WebhookAlert) and reads
        // the company's profile and members to mail.
        tableActions(this.table, ...TABLE_READ, 'dynamodb:UpdateItem', ...(mailFrom ? ['dynamodb:PutItem'] : [])),
        ...(mailFrom ? [mailSending(mailFrom)] : []),
        queueSend('WEBHOOK_QUEUE_URL', this.webhookQueue),
        queueSend('WEBHOOK_DLQ_URL', this.webhookDlq),
        this.webhookSecrets.opening,
        // The tracer would record each POST's full URL (an integrator's may carry a token) and add an
        // X-Amzn-Trace-Id header to it; the sender's trace keeps its AWS calls only.
        value('POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS', 'false'),
      ],
      timeout: WEBHOOK_SENDER_TIMEOUT,
    });
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

/** What a route binds beyond its table access (functions/routes.ts). */
const ROUTE_BINDERS: Partial<Record<string, (stack: CambioStack) => Binder[]>> = {
  [CREATE_WEBHOOK_HANDLER]: (stack) => [stack.webhookSecrets.sealing],
};

/** `/v1/deposits/{id}` → the resource for it, creating each missing segment once. */
function resourceFor(root: IResource, path: string): IResource {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .reduce<IResource>((parent, segment) => parent.getResource(segment) ?? parent.addResource(segment), root);
}

/** A hot wallet's key: secp256k1, signing only, never leaving KMS, and kept when the stack goes
 * (the wallet's funds answer to it). */
function hotWalletKeyProps(description: string, alias: string): KeyProps {
  return { description, keySpec: KeySpec.ECC_SECG_P256K1, keyUsage: KeyUsage.SIGN_VERIFY, removalPolicy: RemovalPolicy.RETAIN, alias };
}

function pascal(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The EVM networks the stage opens (its EVM_NETWORKS figure, checked by the settings schema). */
function openEvmNetworks(config: StageConfig) {
  return v.parse(EVM_STAGE_SETTINGS.EVM_NETWORKS, config.functionEnvironment.EVM_NETWORKS);
}
