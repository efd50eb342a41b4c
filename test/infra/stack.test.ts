import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_RESPONSES, gatewayResponse } from '../../functions/http/gateway-responses.ts';
import {
  AUTHORIZER,
  DASHBOARD_API,
  DASHBOARD_DOWNLOADS,
  DASHBOARD_ROUTES,
  DASHBOARD_SIMULATOR,
  SESSION_AUTHORIZER,
  lambdaName,
  ROUTES,
  JOBS,
} from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import type { CambioStack } from '../../lib/cambio-stack.ts';
import { STAGES } from '../../config/stages.ts';
import { SERVERS } from '../../functions/openapi/servers.ts';
import { cambioFunctions, isAppUploadFunction } from '../support/stack-functions.ts';
import { alarmsTemplate } from '../support/alarms-template.ts';
import { CORE_RULE_SET_NAMESPACE, COUNTED_CORE_RULES, ENFORCED_CORE_RULE_LABELS, routePathsPattern, WAF_REGEX_MAX_LENGTH } from '../../lib/waf.ts';
import { issueCredentials, rollSecret } from '../../functions/api-keys/api-keys.ts';

/** Every route in ../shared/api-contract.md, in the contract's order. */
const CONTRACT_ROUTES = [
  'GET /v1/company',
  'GET /v1/company/balance',
  'POST /v1/deposits',
  'GET /v1/deposits/{id}',
  'POST /v1/withdrawals',
  'GET /v1/withdrawals/{id}',
  'POST /v1/conversions/quote',
  'POST /v1/conversions',
  'GET /v1/conversions',
  'GET /v1/conversions/{id}',
  'GET /v1/webhooks',
  'POST /v1/webhooks',
  'GET /v1/webhooks/{id}',
  'PUT /v1/webhooks/{id}',
  'DELETE /v1/webhooks/{id}',
];

/** Contract routes with no ROUTES entry yet. Adding a route to functions/routes.ts? Remove it here. */
const PENDING: string[] = [];

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:*',
];

const SYNTH_TIMEOUT = 60_000;
const routeName = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('contract coverage', () => {
  it('contract routes not yet provisioned are listed by name', () => {
    const provisioned = new Set(ROUTES.map(routeName));
    const missing = CONTRACT_ROUTES.filter((route) => !provisioned.has(route));

    expect(missing, 'a route was added to ROUTES: remove it from PENDING in this test').toEqual(PENDING);
  });

  it('ROUTES holds no route the contract does not define', () => {
    const extra = ROUTES.map(routeName).filter((route) => !CONTRACT_ROUTES.includes(route));

    expect(extra).toEqual([]);
  });
});

describe('stage selection', () => {
  it.each(['local', 'staging', undefined])('refuses stage %s with a message naming the valid stages', (stage) => {
    const app = new App({ context: stage === undefined ? {} : { stage } });

    expect(() => addCambioStack(app)).toThrow(/pass -c stage=sandbox or -c stage=production/);
  });

  it.each(['sandbox', 'production'])('names the %s stack Cambio-<stage>', (stage) => {
    const stack = stageStack(stage);

    expect(stack.stackName).toBe(`Cambio-${stage}`);
  });
});

describe.each(['sandbox', 'production'] as const)('Cambio-%s', (stage) => {
  const config = STAGES[stage];
  let template: Template;

  beforeAll(() => {
    template = Template.fromStack(stageStack(stage));
  }, SYNTH_TIMEOUT);

  // The tests synthesize without it (vitest.config.ts says why); `cdk synth` runs it on every stage.
  it('passes the CloudFormation template validation that cdk synth runs (@aws/cloudformation-validate) with no violation', () => {
    const enabled = process.env.CDK_VALIDATION;
    process.env.CDK_VALIDATION = 'true';
    const app = new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } });
    try {
      addCambioStack(app);
      const { directory } = app.synth();
      const report = JSON.parse(readFileSync(join(directory, 'validation-report.json'), 'utf8')) as { pluginReports: { pluginName: string; conclusion: string; violations: unknown[] }[] };
      rmSync(directory, { recursive: true, force: true });
      expect(report.pluginReports.find((plugin) => plugin.pluginName === 'CloudFormation Validate')).toMatchObject({ conclusion: 'success', violations: [] });
    } finally {
      if (enabled === undefined) delete process.env.CDK_VALIDATION;
      else process.env.CDK_VALIDATION = enabled;
    }
  }, SYNTH_TIMEOUT);

  // CloudFormation refuses a stack of more than 500 resources at deploy time, which synth does not
  // check: a stage that grew past it would fail only on `cdk deploy`. 50 are kept in hand.
  it('stays under 450 CloudFormation resources, well inside the 500 a stack may hold', () => {
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThanOrEqual(450);
  });

  describe('REST API', () => {
    it.each(ROUTES.map((route) => [routeName(route), route] as const))(
      '%s is a method behind the custom authorizer with a Lambda proxy integration',
      (name, route) => {
        const method = methodsByRoute(template).get(name);

        expect(method, `no API Gateway method for ${name}`).toBeDefined();
        expect(method!.AuthorizationType).toBe('CUSTOM');
        expect(method!.AuthorizerId).toEqual({ Ref: authorizerId(template) });
        expect(method!.Integration.Type).toBe('AWS_PROXY');
        expect(JSON.stringify(method!.Integration.Uri)).toContain(logicalIdOfFunction(template, functionName(stage, route.handler)));
      },
    );

    it.each(ROUTES.map((route) => [routeName(route), route] as const))('%s: its function may be invoked by API Gateway on the stage alone, not the console\'s test-invoke stage', (name, route) => {
      const functionId = logicalIdOfFunction(template, functionName(stage, route.handler));
      const grants = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter((permission) => JSON.stringify(permission.Properties!.FunctionName).includes(`"${functionId}"`));
      expect(grants.map((grant) => grant.Properties!.Principal)).toEqual(['apigateway.amazonaws.com']);
      const sourceArn = JSON.stringify(grants[0]!.Properties!.SourceArn);
      expect(sourceArn).not.toContain('test-invoke-stage');
      // The deployed stage's method, a path parameter as `*`.
      expect(sourceArn).toMatch(/"\/",\{"Ref":"ApiDeploymentStage\w+"\},"\//);
      expect(sourceArn).toContain(`/${name.replace(' ', '').replace(/\{\w+\}/g, '*')}"`);
    });

    it('has one method per route and nothing else', () => {
      expect([...methodsByRoute(template).keys()].sort()).toEqual(ROUTES.map(routeName).sort());
    });

    it(`is a REST API whose stage is named ${stage} and throttles every method at the stage's rate and burst`, () => {
      // The /v1 API and the dashboard's (lib/dashboard.ts).
      template.resourceCountIs('AWS::ApiGateway::RestApi', 2);
      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: stage,
        MethodSettings: [
          Match.objectLike({
            HttpMethod: '*',
            ResourcePath: '/*',
            ThrottlingRateLimit: config.throttle.rateLimit,
            ThrottlingBurstLimit: config.throttle.burstLimit,
          }),
        ],
        AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
      });
    });

    it("outputs ApiUrl exactly as openapi.json's deployed-stage server, the base URL integrators give the client", () => {
      const [joiner, parts] = template.findOutputs('ApiUrl').ApiUrl!.Value['Fn::Join'] as [string, unknown[]];
      const stageId = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0];
      const rendered = parts
        .map((part) => {
          if (typeof part === 'string') return part.replace(/^\.execute-api\.[a-z0-9-]+\.$/, '.execute-api.{region}.');
          const ref = (part as { Ref?: string }).Ref;
          if (ref === 'AWS::Region') return '{region}';
          if (ref === 'AWS::URLSuffix') return 'amazonaws.com';
          if (ref === stageId) return '{stage}';
          if (ref && resourcesOfType(template, 'AWS::ApiGateway::RestApi')[ref]) return '{restApiId}';
          throw new Error(`unexpected part of ApiUrl: ${JSON.stringify(part)}`);
        })
        .join(joiner);

      expect(rendered).toBe(SERVERS[0].url);
    });

    it('authorizes with both credential headers as identity sources and caches for the configured TTL', () => {
      const authorizer = resourcesOfType(template, 'AWS::ApiGateway::Authorizer')[authorizerId(template)]!.Properties!;

      expect(authorizer.Type).toBe('REQUEST');
      expect(authorizer.IdentitySource.split(',').sort()).toEqual(
        AUTHORIZER.identityHeaders.map((header) => `method.request.header.${header}`).sort(),
      );
      expect(authorizer.AuthorizerResultTtlInSeconds).toBe(config.authorizerCacheSeconds);
      expect(JSON.stringify(authorizer.AuthorizerUri)).toContain(logicalIdOfFunction(template, functionName(stage, AUTHORIZER.handler)));
    });
  });

  describe('gateway responses', () => {
    it.each(GATEWAY_RESPONSES.map((spec) => [spec.type, spec] as const))(
      '%s answers in the contract envelope with its code and status',
      (type, spec) => {
        const matching = Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')).filter(
          (response) => response.Properties!.ResponseType === type && response.Properties!.RestApiId.Ref === v1ApiId(template),
        );

        expect(matching).toHaveLength(1);
        const props = matching[0]!.Properties!;
        expect(props.StatusCode).toBe(spec.status === undefined ? undefined : String(spec.status));
        expect(props.ResponseParameters).toEqual({
          'gatewayresponse.header.Content-Type': "'application/json'",
          ...Object.fromEntries(Object.entries(spec.headers ?? {}).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`])),
        });
        const body: string = props.ResponseTemplates['application/json'];
        // The template is VTL: `$` or `#` in a message would be evaluated, not sent as written.
        expect(body).not.toMatch(/[$#]/);
        expect(JSON.parse(body)).toEqual({ success: false, error: { code: spec.code, message: spec.message, details: null } });
      },
    );

    it.each(['THROTTLED', 'QUOTA_EXCEEDED', 'INVALID_API_KEY'])('%s answers 429 RATE_LIMITED with Retry-After in seconds', (type) => {
      const response = Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')).find(
        (candidate) => candidate.Properties!.ResponseType === type,
      )!.Properties!;

      expect(response.StatusCode).toBe('429');
      expect(JSON.parse(response.ResponseTemplates['application/json']).error.code).toBe('RATE_LIMITED');
      expect(response.ResponseParameters['gatewayresponse.header.Retry-After']).toMatch(/^'[1-9]\d*'$/);
    });

    it.each(['UNAUTHORIZED', 'ACCESS_DENIED'])('%s looks like any failed authentication: 401 AUTH_FAILED', (type) => {
      const response = Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')).find(
        (candidate) => candidate.Properties!.ResponseType === type && candidate.Properties!.RestApiId.Ref === v1ApiId(template),
      )!.Properties!;

      expect(response.StatusCode).toBe('401');
      expect(JSON.parse(response.ResponseTemplates['application/json']).error.code).toBe('AUTH_FAILED');
    });
  });

  describe('table', () => {
    it('is the single table with PK/SK, GSI1, the TTL attribute, on demand, with PITR, a stream and encryption', () => {
      template.resourceCountIs('AWS::DynamoDB::Table', 1);
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
          { AttributeName: 'GSI1PK', AttributeType: 'S' },
          { AttributeName: 'GSI1SK', AttributeType: 'S' },
        ]),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeySchema: [
              { AttributeName: 'GSI1PK', KeyType: 'HASH' },
              { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        SSESpecification: { SSEEnabled: true },
      });
    });

    it(`${config.protectData ? 'is' : 'is not'} protected from deletion`, () => {
      template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({ DeletionProtectionEnabled: config.protectData }),
        DeletionPolicy: config.protectData ? 'Retain' : 'Delete',
        UpdateReplacePolicy: config.protectData ? 'Retain' : 'Delete',
      });
    });

    it('is tagged with the project and the stage', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        Tags: Match.arrayWith([
          { Key: 'Project', Value: 'Cambio' },
          { Key: 'Stage', Value: stage },
        ]),
      });
    });
  });

  describe('functions', () => {
    it("runs one function per /v1 route, one for the dashboard API, one for its simulator and one per dashboard download, plus the authorizer, the deposit poller, the withdrawal sender, the deposit sweeper, the webhook dispatcher and sender, the reconcile job, the finance export check, the ledger CSV job, the screening refresh and the usage key provisioner, all on nodejs22.x and arm64, 512 MB but the ledger CSV job's, the screening refresh's and the deposit poller's (its address filter) 1 GB", () => {
      const functions = Object.values(cambioFunctions(resourcesOfType(template, 'AWS::Lambda::Function')));
      const gigabyte = [JOBS.ledgerDayCsv.handler, JOBS.screeningRefresh.handler, JOBS.depositPoller.handler].map((handler) => functionName(stage, handler));

      expect(functions).toHaveLength(ROUTES.length + 11 + 1 + 1 + 1 + DASHBOARD_DOWNLOADS.length);
      for (const fn of functions) {
        expect(fn.Properties!.Runtime).toBe('nodejs22.x');
        expect(fn.Properties!.Architectures).toEqual(['arm64']);
        expect(fn.Properties!.Handler).toBe('index.handler');
        expect(fn.Properties!.MemorySize).toBe(gigabyte.includes(fn.Properties!.FunctionName) ? 1024 : 512);
        // The rest of each function's environment is its settings slice (test/infra/settings.test.ts).
        expect(fn.Properties!.Environment.Variables.STAGE).toBe(stage);
      }
    });

    it(`keeps every function's logs for ${config.logRetentionDays} days`, () => {
      for (const fn of Object.values(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        const logGroupId: string = fn.Properties!.LoggingConfig.LogGroup.Ref;
        expect(resourcesOfType(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties!.RetentionInDays).toBe(config.logRetentionDays);
      }
    });

    it("lets the /v1 authorizer read the table and write nothing but an API key's last use", () => {
      const { actions } = grantsOf(template, functionName(stage, AUTHORIZER.handler));
      expect(actions.filter((action) => WRITE_ACTIONS.includes(action))).toEqual(['dynamodb:UpdateItem']);
      const authorizerRole: string = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).find((fn) => fn.Properties!.FunctionName === functionName(stage, AUTHORIZER.handler))!.Properties!.Role['Fn::GetAtt'][0];
      const update = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties!.Roles).includes(authorizerRole))
        .flatMap((policy) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[])
        .find((statement) => [statement.Action].flat().includes('dynamodb:UpdateItem'))!;
      expect(update.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] } });
    });

    it.each([...ROUTES].map((route) => [
      route.handler,
      route.tableAccess,
    ]))('%s is granted %s access to the table and nothing more', (handler, access) => {
      const { actions, dynamoResources } = grantsOf(template, functionName(stage, handler));
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;

      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      if (access === 'read') expect(actions.filter((action) => WRITE_ACTIONS.includes(action) || action === 'dynamodb:Scan')).toEqual([]);
      else expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
      for (const resource of dynamoResources) expect(JSON.stringify(resource)).toContain(tableId);
    });
  });

  describe('webhook queues', () => {
    it('sends a message to the dead-letter queue after 10 receives', () => {
      const queues = resourcesOfType(template, 'AWS::SQS::Queue');
      const withRedrive = Object.values(queues).filter((queue) => queue.Properties!.RedrivePolicy);

      expect(withRedrive).toHaveLength(1);
      const { deadLetterTargetArn, maxReceiveCount } = withRedrive[0]!.Properties!.RedrivePolicy;
      expect(maxReceiveCount).toBe(10);
      const dlq = queues[deadLetterTargetArn['Fn::GetAtt'][0]]!;
      expect(dlq.Properties!.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    });

    it('encrypts every queue (the webhook queue and its dead-letter queue, the schedules\', the stream\'s and the ledger job\'s dead letters) and refuses requests without TLS', () => {
      const queueIds = Object.keys(resourcesOfType(template, 'AWS::SQS::Queue'));

      expect(queueIds).toHaveLength(5);
      for (const id of queueIds) {
        expect(resourcesOfType(template, 'AWS::SQS::Queue')[id]!.Properties!.SqsManagedSseEnabled).toBe(true);
        template.hasResourceProperties('AWS::SQS::QueuePolicy', {
          Queues: [{ Ref: id }],
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
            ]),
          },
        });
      }
    });
  });

  it(`runs the deposit poller every ${config.pollerScheduleMinutes} minute(s)`, () => {
    const minutes = config.pollerScheduleMinutes;
    const poller = logicalIdOfFunction(template, functionName(config.stage, JOBS.depositPoller.handler));
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: minutes === 1 ? 'rate(1 minute)' : `rate(${minutes} minutes)`,
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [poller, 'Arn'] } })]),
    });
  });

  describe('webhook delivery', () => {
    const idOf = (handler: string) => logicalIdOfFunction(template, functionName(stage, handler));
    const mappingOf = (handler: string) => {
      const id = idOf(handler);
      const mappings = Object.values(resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')).filter(
        (mapping) => mapping.Properties!.FunctionName.Ref === id,
      );
      expect(mappings).toHaveLength(1);
      return mappings[0]!.Properties!;
    };
    const queueIds = () => {
      const queues = resourcesOfType(template, 'AWS::SQS::Queue');
      const main = Object.keys(queues).find((id) => queues[id]!.Properties!.RedrivePolicy)!;
      const dlq = webhookDlqId(template);
      return { main, dlq, queues };
    };

    it('runs the dispatcher on the table stream, filtered to inserted Event items, bisecting and retrying a failing batch', () => {
      const mapping = mappingOf(JOBS.webhookDispatcher.handler);
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;

      expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
      expect(mapping.StartingPosition).toBe('TRIM_HORIZON');
      expect(mapping.BisectBatchOnFunctionError).toBe(true);
      expect(mapping.MaximumRetryAttempts).toBeGreaterThan(0);
      expect(mapping.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['Event'] } } } },
      ]);
      const { actions } = grantsOf(template, functionName(stage, JOBS.webhookDispatcher.handler));
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:Query', 'dynamodb:UpdateItem', 'sqs:SendMessage']));
      expect(actions).not.toContain('dynamodb:PutItem');
    });

    it('runs the dispatcher\'s catch-up pass over undispatched events every minute', () => {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(1 minute)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [idOf(JOBS.webhookDispatcher.handler), 'Arn'] } })],
      });
    });

    it('runs the sender on the webhook queue in batches of 10 with partial batch responses, and lets it write to the dead-letter queue', () => {
      const mapping = mappingOf(JOBS.webhookSender.handler);
      const { main, dlq, queues } = queueIds();

      expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': [main, 'Arn'] });
      expect(mapping.BatchSize).toBe(10);
      expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      const sender = resourcesOfType(template, 'AWS::Lambda::Function')[idOf(JOBS.webhookSender.handler)]!.Properties!;
      // AWS advises a visibility timeout of six times the function's timeout for an SQS source.
      expect(queues[main]!.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * sender.Timeout);
      expect(sender.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: main });
      expect(sender.Environment.Variables.WEBHOOK_DLQ_URL).toEqual({ Ref: dlq });
      const policies = Object.values(resourcesOfType(template, 'AWS::IAM::Policy')).filter((policy) =>
        JSON.stringify(policy.Properties!.Roles).includes(sender.Role['Fn::GetAtt'][0]),
      );
      const statements = policies.flatMap((policy) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
      const sendsTo = statements.filter((statement) => [statement.Action].flat().includes('sqs:SendMessage')).map((statement) => JSON.stringify(statement.Resource));
      expect(sendsTo.some((resource) => resource.includes(dlq))).toBe(true);
      expect(statements.some((statement) => [statement.Action].flat().includes('sqs:DeleteMessage'))).toBe(true);
      expect(grantsOf(template, functionName(stage, JOBS.webhookSender.handler)).actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:BatchGetItem']));
    });

    it('allows webhooks to loopback on no deployed function', () => {
      for (const fn of Object.values(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        expect(fn.Properties!.Environment.Variables.WEBHOOK_ALLOW_LOOPBACK_HTTP).toBeUndefined();
      }
    });
  });

  it('gives the deposit poller no permission to sign or decrypt anything', () => {
    const poller = logicalIdOfFunction(template, functionName(config.stage, JOBS.depositPoller.handler));
    const role = (resourcesOfType(template, 'AWS::Lambda::Function')[poller]!.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const actions = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties!.Roles).includes(role!))
      .flatMap((policy) => (policy.Properties!.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement)
      .flatMap((statement) => [statement.Action].flat());
    expect(actions.some((action) => /^kms:(Sign|Decrypt)/.test(action))).toBe(false);
    // Transactions are authorised per item: PutItem and UpdateItem cover the poller's writes.
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem']));
  });

  it('lets the withdrawal sender and the sweeper, and no other function, sign with the hot wallet key in KMS', () => {
    template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' });
    const sender = logicalIdOfFunction(template, functionName(config.stage, JOBS.withdrawalSender.handler));
    const sweeper = logicalIdOfFunction(template, functionName(config.stage, JOBS.depositSweeper.handler));
    const functions = resourcesOfType(template, 'AWS::Lambda::Function');
    const roleOf = (id: string) => (functions[id]!.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
    const actionsOf = (role: string) =>
      Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties!.Roles).includes(role))
        .flatMap((policy) => (policy.Properties!.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement)
        .flatMap((statement) => [statement.Action].flat());
    expect(actionsOf(roleOf(sender))).toContain('kms:Sign');
    const signers = Object.keys(functions).filter((id) => actionsOf(roleOf(id)).some((action) => action === 'kms:Sign' || action === 'kms:*'));
    expect(signers.sort()).toEqual([sender, sweeper].sort());
    expect(functions[sender]!.Properties!.Environment.Variables.SIGNER_KMS_KEY_ID).toBeDefined();
    // The deposit addresses' HD key (a Secrets Manager secret) is readable by the sweeper alone.
    const xprvReaders = Object.keys(functions).filter((id) =>
      Object.values(resourcesOfType(template, 'AWS::IAM::Policy')).some(
        (policy) => JSON.stringify(policy.Properties!.Roles).includes(roleOf(id)) && JSON.stringify(policy.Properties!.PolicyDocument).includes('deposit-account-xprv'),
      ),
    );
    expect(xprvReaders).toEqual([sweeper]);
  });

  describe('least privilege', () => {
    const roleOf = (handler: string) => resourcesOfType(template, 'AWS::Lambda::Function')[logicalIdOfFunction(template, functionName(stage, handler))]!.Properties!.Role['Fn::GetAtt'][0] as string;

    it("refuses kms:Sign on every hot wallet key, in the key's own policy, to any principal but the withdrawal sender's and the deposit sweeper's roles, whatever the account's IAM allows", () => {
      const keys = Object.values(resourcesOfType(template, 'AWS::KMS::Key')).filter((key) => key.Properties!.KeyUsage === 'SIGN_VERIFY');
      expect(keys.length).toBeGreaterThan(0);
      const signers = [roleOf(JOBS.withdrawalSender.handler), roleOf(JOBS.depositSweeper.handler)];
      const roleArn = (roleId: string) => ({ 'Fn::GetAtt': [roleId, 'Arn'] });
      /** Whether the key's policy denies kms:Sign to the principal with this ARN (an IAM Allow cannot undo a Deny). */
      const signingDenied = (key: Resource, principalArn: unknown) =>
        (key.Properties!.KeyPolicy.Statement as any[]).some(
          (statement) =>
            statement.Effect === 'Deny' &&
            statement.Principal?.AWS === '*' &&
            [statement.Action].flat().includes('kms:Sign') &&
            !(statement.Condition?.ArnNotEquals?.['aws:PrincipalArn'] as unknown[]).some((allowed) => JSON.stringify(allowed) === JSON.stringify(principalArn)),
        );
      for (const key of keys) {
        for (const signer of signers) expect(signingDenied(key, roleArn(signer))).toBe(false);
        for (const other of [roleOf(JOBS.reconcile.handler), roleOf(JOBS.depositPoller.handler), roleOf(AUTHORIZER.handler)]) expect(signingDenied(key, roleArn(other))).toBe(true);
        // An administrator, a CI role, CloudFormation's execution role.
        expect(signingDenied(key, 'arn:aws:iam::123456789012:role/Admin')).toBe(true);
      }
    });

    it('gives every function a role of its own that may write to its own log group only, with no managed policy', () => {
      for (const fn of Object.values(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        const roleId: string = fn.Properties!.Role['Fn::GetAtt'][0];
        const logGroupId: string = fn.Properties!.LoggingConfig.LogGroup.Ref;
        expect(resourcesOfType(template, 'AWS::IAM::Role')[roleId]!.Properties!.ManagedPolicyArns).toBeUndefined();
        const logStatements = policyStatementsOfRole(template, roleId).filter((statement) => [statement.Action].flat().some((action) => String(action).startsWith('logs:')));
        expect(logStatements).toHaveLength(1);
        for (const resource of [logStatements[0]!.Resource].flat()) expect(JSON.stringify(resource)).toContain(`"${logGroupId}"`);
      }
    });

    it.each([
      [JOBS.depositPoller.handler, ['dynamodb:PutItem', 'dynamodb:UpdateItem']],
      [JOBS.withdrawalSender.handler, ['dynamodb:PutItem', 'dynamodb:UpdateItem']],
      // Its deletes are its sweep records' alone (a LeadingKeys condition: function-grants.test.ts).
      [JOBS.depositSweeper.handler, ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']],
      [JOBS.webhookDispatcher.handler, ['dynamodb:UpdateItem']],
      [JOBS.webhookSender.handler, ['dynamodb:PutItem', 'dynamodb:UpdateItem']],
      // Its one write is its turn's place (a LeadingKeys condition: function-grants.test.ts).
      [JOBS.reconcile.handler, ['dynamodb:PutItem']],
    ])('lets %s write only with %j, never scan (but the reconcile), delete (but the sweeper, its sweep records alone: function-grants.test.ts) or batch-write', (handler, writes) => {
      const { actions } = grantsOf(template, functionName(stage, handler));
      const dynamo = actions.filter((action) => action.startsWith('dynamodb:') && !/Stream|Shard|GetRecords/.test(action));

      expect(dynamo.filter((action) => WRITE_ACTIONS.includes(action)).sort()).toEqual([...writes].sort());
      expect(dynamo.includes('dynamodb:Scan')).toBe(handler === JOBS.reconcile.handler);
      if (handler !== JOBS.depositSweeper.handler) expect(dynamo).not.toContain('dynamodb:DeleteItem');
      expect(dynamo).not.toContain('dynamodb:BatchWriteItem');
    });

    it('lets the reconcile job read the hot wallet public key, never sign', () => {
      const kmsActions = policyStatementsOfRole(template, roleOf(JOBS.reconcile.handler))
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => String(action).startsWith('kms:'));
      expect(kmsActions).toEqual(['kms:GetPublicKey']);
    });

    it('runs the reconcile job hourly', () => {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(1 hour)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalIdOfFunction(template, functionName(stage, JOBS.reconcile.handler)), 'Arn'] } })],
      });
    });

    it("lets the finance export check list exports and describe this table's exports, and nothing else", () => {
      // Every function may write its own logs and X-Ray segments (test/infra/tracing.test.ts).
      const statements = policyStatementsOfRole(template, roleOf(JOBS.financeExportCheck.handler)).filter(
        (statement) => ![statement.Action].flat().some((action) => /^(logs|xray):/.test(String(action))),
      );
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;

      expect(statements.map((statement) => [statement.Action].flat()).sort()).toEqual([['dynamodb:DescribeExport'], ['dynamodb:ListExports']]);
      expect(statements.find((statement) => statement.Action === 'dynamodb:ListExports')!.Resource).toBe('*');
      expect(statements.find((statement) => statement.Action === 'dynamodb:DescribeExport')!.Resource).toEqual({
        'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/export/*']],
      });
      const fn = resourcesOfType(template, 'AWS::Lambda::Function')[logicalIdOfFunction(template, functionName(stage, JOBS.financeExportCheck.handler))]!;
      expect(fn.Properties!.Environment.Variables.EXPORT_TABLE_ARN).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    });

    it('runs the finance export check hourly from 04:15 to 23:15 UTC, after the export starts at 03:00', () => {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'cron(15 4-23 * * ? *)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalIdOfFunction(template, functionName(stage, JOBS.financeExportCheck.handler)), 'Arn'] } })],
      });
    });
  });

  describe('encryption at rest', () => {
    it('encrypts the table, both queues, every bucket and the alarm topic', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', { SSESpecification: { SSEEnabled: true } });
      for (const queue of Object.values(resourcesOfType(template, 'AWS::SQS::Queue'))) expect(queue.Properties!.SqsManagedSseEnabled).toBe(true);
      const buckets = Object.values(resourcesOfType(template, 'AWS::S3::Bucket'));
      expect(buckets.length).toBeGreaterThan(0);
      for (const bucket of buckets) {
        expect(bucket.Properties!.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
        expect(bucket.Properties!.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
      }
      template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    });
  });

  describe('WAF', () => {
    if (config.waf) {
      it('puts a web ACL with the AWS common rule set and a per-IP rate rule answering 429 in the envelope on the stage', () => {
        template.resourceCountIs('AWS::WAFv2::WebACL', 1);
        const acl = Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
        expect(acl.Scope).toBe('REGIONAL');
        const rate = acl.Rules.find((rule: any) => rule.Statement.RateBasedStatement);
        expect(rate.Statement.RateBasedStatement).toEqual({ Limit: config.waf!.ratePer5Minutes, AggregateKeyType: 'IP' });
        expect(rate.Action.Block.CustomResponse.ResponseCode).toBe(429);
        // Every 429 of the contract's says when to come back.
        expect(rate.Action.Block.CustomResponse.ResponseHeaders).toEqual([{ Name: 'Retry-After', Value: '60' }]);
        expect(JSON.parse(acl.CustomResponseBodies.RateLimited.Content).error.code).toBe('RATE_LIMITED');
        const common = acl.Rules.find((rule: any) => rule.Statement.ManagedRuleGroupStatement);
        expect(common.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' });
        // The contract allows 16 KiB bodies; the rule set's own limit is 8 KB.
        expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toContainEqual({ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } });
        const stageId = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0]!;
        template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([{ Ref: stageId }])]) }) });
      });

      it('never shows a credential in a sampled request or a log: the API secret and the session cookie are REDACTED wherever a rule samples', () => {
        const acl = Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
        const sampling = [acl.VisibilityConfig, ...acl.Rules.map((rule: any) => rule.VisibilityConfig)].some((visibility: any) => visibility.SampledRequestsEnabled);
        expect(sampling).toBe(true);
        expect(acl.DataProtectionConfig.DataProtections).toEqual(
          expect.arrayContaining([
            { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['x-api-secret'] }, Action: 'SUBSTITUTION' },
            { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['cookie'] }, Action: 'SUBSTITUTION' },
          ]),
        );
      });

      it('answers a body over 16 KiB (WAF sees 16 KB of it: a longer one matches as oversize) with 413 PAYLOAD_TOO_LARGE in the envelope, before any other rule but the rate', () => {
        const acl = Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
        const rule = acl.Rules.find((candidate: any) => candidate.Name === 'BodyOver16KiB');
        expect(rule.Statement.SizeConstraintStatement).toEqual({ FieldToMatch: { Body: { OversizeHandling: 'MATCH' } }, ComparisonOperator: 'GT', Size: 16 * 1024, TextTransformations: [{ Priority: 0, Type: 'NONE' }] });
        expect(acl.AssociationConfig).toEqual({ RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_16' } } });
        expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(413);
        expect(JSON.parse(acl.CustomResponseBodies[rule.Action.Block.CustomResponse.CustomResponseBodyKey].Content)).toEqual({
          success: false,
          error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 16 KiB', details: null },
        });
        const others = acl.Rules.filter((candidate: any) => candidate.Name !== 'BodyOver16KiB' && !candidate.Statement.RateBasedStatement);
        expect(others.every((other: any) => other.Priority > rule.Priority)).toBe(true);
      });

      describe('credentials not of the stage\'s form', () => {
        const acl = () => Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
        const rule = () => (acl().Rules as any[]).find((candidate) => candidate.Name === 'CredentialsNotOfStageForm');
        const refuses = (path: string, headers: Record<string, string>) => requestStatementMatches(rule().Statement, { path, headers });
        const routePath = (path: string) => path.replace(/\{[^}]+\}/g, 'dep_01JA0000000000000000000000');
        const credentials = (environment: typeof config.environment) => {
          const issued = issueCredentials('co_1', environment, new Date());
          return { 'x-api-key': issued.apiKey, 'x-api-secret': issued.apiSecret, rolled: rollSecret(issued.record, 'now', new Date()).apiSecret };
        };

        it('answers 401 AUTH_FAILED with the body the authorizer\'s refusal has, so a caller cannot tell which refused', () => {
          const { CustomResponse } = rule().Action.Block;
          expect(CustomResponse.ResponseCode).toBe(401);
          expect(acl().CustomResponseBodies[CustomResponse.CustomResponseBodyKey].Content).toBe(gatewayResponse('UNAUTHORIZED').body);
          expect(JSON.parse(acl().CustomResponseBodies[CustomResponse.CustomResponseBodyKey].Content).error.code).toBe('AUTH_FAILED');
        });

        it('lets through every key and secret the stage issues or rolls, on every route, at the execute-api URL and on a custom domain', () => {
          for (let i = 0; i < 50; i++) {
            const { rolled, ...issued } = credentials(config.environment);
            for (const route of ROUTES) {
              for (const path of [routePath(route.path), `/${stage}${routePath(route.path)}`]) {
                expect(refuses(path, issued), `${path} ${issued['x-api-key']}`).toBe(false);
                expect(refuses(path, { ...issued, 'x-api-secret': rolled })).toBe(false);
              }
            }
          }
        });

        it('refuses, on every route, a request without a key or a secret, with either malformed, or with the other stage\'s credentials', () => {
          const issued = credentials(config.environment);
          const other = credentials(config.environment === 'production' ? 'sandbox' : 'production');
          const good = { 'x-api-key': issued['x-api-key'], 'x-api-secret': issued['x-api-secret'] };
          for (const route of ROUTES) {
            const path = `/${stage}${routePath(route.path)}`;
            expect(refuses(path, {})).toBe(true);
            expect(refuses(path, { 'x-api-key': good['x-api-key'] })).toBe(true);
            expect(refuses(path, { 'x-api-secret': good['x-api-secret'] })).toBe(true);
            expect(refuses(path, { ...good, 'x-api-key': `${good['x-api-key']}x` })).toBe(true);
            expect(refuses(path, { ...good, 'x-api-secret': good['x-api-secret'].slice(0, -1) })).toBe(true);
            expect(refuses(path, { ...good, 'x-api-key': 'Bearer abc' })).toBe(true);
            expect(refuses(path, { 'x-api-key': other['x-api-key'], 'x-api-secret': other['x-api-secret'] })).toBe(true);
          }
          // Decoded first, as API Gateway routes it.
          expect(refuses(`/${stage}/v1/%64eposits`, {})).toBe(true);
        });

        it('leaves a path no route has to API Gateway, which answers it 404 NOT_FOUND', () => {
          for (const path of ['/', `/${stage}`, '/v1', '/v1/unknown', `/${stage}/v1/deposits/dep_1/extra`, '/v2/deposits', '/docs']) expect(refuses(path, {}), path).toBe(false);
        });

        it(`fits WAF's limit on one expression (${WAF_REGEX_MAX_LENGTH} characters)`, () => {
          expect(routePathsPattern().length).toBeLessThanOrEqual(WAF_REGEX_MAX_LENGTH);
        });
      });

      describe("the common rule set's refusals", () => {
        const acl = () => Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
        const rules = () => acl().Rules as any[];
        const blockRule = () => rules().find((rule) => rule.Name === 'AwsCommonRuleSetBlock');
        const blocks = (...labels: string[]) => labelStatementMatches(blockRule().Statement, labels.map((name) => `${CORE_RULE_SET_NAMESPACE}${name}`));

        it('runs the managed group for its labels only (count), the counted rules counted inside it too, and blocks on the labels in the rule after it', () => {
          const common = rules().find((rule) => rule.Statement.ManagedRuleGroupStatement);
          expect(common.OverrideAction).toEqual({ Count: {} });
          expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([
            { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
            { Name: 'NoUserAgent_HEADER', ActionToUse: { Count: {} } },
          ]);
          expect(blockRule().Priority).toBeGreaterThan(common.Priority);
        });

        it('answers 403 FORBIDDEN in the contract envelope, the same body as the WAF_FILTERED gateway response', () => {
          const { CustomResponse } = blockRule().Action.Block;
          const body = acl().CustomResponseBodies[CustomResponse.CustomResponseBodyKey];
          expect(CustomResponse.ResponseCode).toBe(403);
          expect(body.ContentType).toBe('APPLICATION_JSON');
          expect(JSON.parse(body.Content)).toEqual({ success: false, error: { code: 'FORBIDDEN', message: 'The request was refused by the API firewall', details: null } });
          expect(body.Content).toBe(gatewayResponse('WAF_FILTERED').body);
        });

        it.each(ENFORCED_CORE_RULE_LABELS)('blocks a request labelled %s', (name) => {
          expect(blocks(name)).toBe(true);
        });

        it.each(Object.values(COUNTED_CORE_RULES))('does not block a request labelled %s only (a counted rule)', (name) => {
          expect(blocks(name)).toBe(false);
        });

        it('does not block a request carrying both counted labels, or a label of another namespace, or none', () => {
          expect(blocks(...Object.values(COUNTED_CORE_RULES))).toBe(false);
          expect(labelStatementMatches(blockRule().Statement, ['awswaf:managed:aws:bot-control:signal:automated_browser'])).toBe(false);
          expect(blocks()).toBe(false);
        });

        it('still blocks an attack that also trips a counted rule (no User-Agent, or a body over 8 KB)', () => {
          expect(blocks('NoUserAgent_Header', 'CrossSiteScripting_Body')).toBe(true);
          expect(blocks('SizeRestrictions_Body', 'GenericLFI_Body')).toBe(true);
        });

        it('blocks a label of the set it does not list yet (a rule AWS adds later) when no counted rule matched', () => {
          expect(blocks('SomeFutureRule_Body')).toBe(true);
        });
      });
    } else {
      it('has no web ACL', () => {
        template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      });
    }
  });

  describe('alarms and dashboard', () => {
    const alarms = () => Object.values(resourcesOfType(template, 'AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties!);
    const named = (suffix: string) => {
      const found = alarms().find((alarm) => alarm.AlarmName === `Cambio-${stage}-${suffix}`);
      expect(found, `alarm ${suffix}`).toBeDefined();
      return found!;
    };
    const app = (alarm: Record<string, any>) => ({ namespace: alarm.Namespace, metric: alarm.MetricName, dimensions: alarm.Dimensions });
    const appDimensions = [
      { Name: 'service', Value: 'cambio' },
      { Name: 'stage', Value: stage },
    ];

    it('notifies one encrypted SNS topic from every alarm, and outputs it', () => {
      template.resourceCountIs('AWS::SNS::Topic', 1);
      const topicId = Object.keys(resourcesOfType(template, 'AWS::SNS::Topic'))[0]!;
      expect(alarms().length).toBeGreaterThanOrEqual(9);
      for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(template.findOutputs('AlarmTopicArn').AlarmTopicArn!.Value).toEqual({ Ref: topicId });
    });

    /** Every alarm, the stage template's and the nested stack's (lib/observability.ts: those added since the stage's template filled up are there). */
    let every: Template;
    beforeAll(() => {
      every = alarmsTemplate(stageStack(stage));
    }, SYNTH_TIMEOUT);
    const anywhere = (suffix: string): Record<string, any> => {
      const found = Object.values(every.findResources('AWS::CloudWatch::Alarm')).find((alarm) => alarm.Properties.AlarmName === `Cambio-${stage}-${suffix}`);
      expect(found, `alarm ${suffix}`).toBeDefined();
      return found!.Properties;
    };
    const mathOf = (alarm: Record<string, any>) => ({
      expressions: alarm.Metrics.filter((metric: any) => metric.Expression).map((metric: any) => metric.Expression),
      metrics: alarm.Metrics.filter((metric: any) => metric.MetricStat).map((metric: any) => ({ ...metric.MetricStat.Metric, stat: metric.MetricStat.Stat, period: metric.MetricStat.Period })),
    });

    it('alarms on webhook deliveries given up as they arrive in the dead-letter queue (the sender sends each there), not while it holds them', () => {
      const alarm = anywhere('WebhookDeliveriesGivenUp');
      expect(alarm).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'NumberOfMessagesSent', Statistic: 'Sum', Period: 300, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
      expect(alarm.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [webhookDlqId(template), 'QueueName'] } }]);
      expect(alarm.AlarmDescription).toMatch(/fires on arrivals.*WebhookMessagesErrored/);
      expect(alarms().find((one) => one.AlarmName === `Cambio-${stage}-WebhookDlqNotEmpty`)).toBeUndefined();
    });

    it("alarms when over half of the webhook tries of 15 minutes failed, 20 tries at least: every company's endpoints failing at once", () => {
      const { expressions, metrics } = mathOf(anywhere('WebhookTriesFailing'));
      expect(expressions).toEqual(['IF(made >= 20, 100 * failed / made, 0)', 'FILL(retrying, 0) + FILL(givenUp, 0)', 'failed + FILL(succeeded, 0)']);
      expect(metrics.map((metric: any) => [metric.MetricName, metric.Namespace, metric.stat, metric.period])).toEqual([
        ['WebhookTriesFailed', 'Cambio', 'Sum', 900],
        ['WebhookDeliveriesFailed', 'Cambio', 'Sum', 900],
        ['WebhookDeliveriesSucceeded', 'Cambio', 'Sum', 900],
      ]);
      for (const metric of metrics) expect(metric.Dimensions).toEqual(appDimensions);
      expect(anywhere('WebhookTriesFailing')).toMatchObject({ Threshold: 50, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1 });
    });

    it('alarms on a webhook message the sender could not handle, and on the webhook queue backing up past 30 minutes', () => {
      expect(anywhere('WebhookMessagesErrored')).toMatchObject({ Namespace: 'Cambio', MetricName: 'WebhookMessagesErrored', Dimensions: appDimensions, Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const backlog = anywhere('WebhookQueueBacklog');
      const queues = resourcesOfType(template, 'AWS::SQS::Queue');
      const webhookQueue = Object.keys(queues).find((id) => queues[id]!.Properties!.RedrivePolicy)!;
      expect(backlog).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage', Statistic: 'Maximum', Threshold: 1800, ComparisonOperator: 'GreaterThanThreshold' });
      expect(backlog.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [webhookQueue, 'QueueName'] } }]);
    });

    it('alarms on the API 5xx rate from the stage metrics', () => {
      const alarm = named('Api5xxRate');
      const expression = alarm.Metrics.find((metric: any) => metric.Expression);
      expect(expression.Expression).toContain('100 * errors / requests');
      const names = alarm.Metrics.filter((metric: any) => metric.MetricStat).map((metric: any) => metric.MetricStat.Metric.MetricName).sort();
      expect(names).toEqual(['5XXError', 'Count']);
    });

    it.each([
      ['AuthorizerErrors', 'AuthorizerErrors'],
      ['ScannerLag', 'ScannerLagBlocks'],
      ['WithdrawalsStuckProcessing', 'WithdrawalsStuckProcessing'],
      ['ReconcileShortfall', 'ReconcileShortfallUsdt'],
      ['ReconcileSurplus', 'ReconcileSurplusUsdt'],
      ['ReconcileUnexplained', 'ReconcileUnexplainedUsdt'],
      ['SweepsHeld', 'SweepsHeld'],
      ['HotWalletShort', 'WithdrawalsAwaitingFloat'],
    ])('alarm %s watches the functions’ own metric %s', (name, metric) => {
      expect(app(named(name))).toEqual({ namespace: 'Cambio', metric, dimensions: appDimensions });
    });

    it('treats a silent deposit poller as lagging', () => {
      expect(named('ScannerLag').TreatMissingData).toBe('breaching');
    });

    it.each([
      ['WithdrawalSenderNotRunningTron', 'WithdrawalsCompleted', 1800, /withdrawal sender.*EventBridge rule.*Throttles/],
      ['DepositSweeperNotRunningTron', 'DepositAddressesFrozen', 1800, /deposit sweeper.*EventBridge rule.*Throttles/],
      ['ReconcileNotRunning', 'ReconcileAddressesRead', 7200, /reconcile.*"Compares the wallets with the ledger".*Throttles/],
    ])('alarm %s breaches when no run published %s (every run does, idle or not) in %i seconds: a job no longer run', (name, metric, period, description) => {
      const alarm = anywhere(name);
      expect(alarm).toMatchObject({ Namespace: 'Cambio', MetricName: metric, Dimensions: appDimensions, Statistic: 'SampleCount', Period: period, Threshold: 1 });
      expect(alarm).toMatchObject({ ComparisonOperator: 'LessThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'breaching' });
      expect(alarm.AlarmDescription).toMatch(description);
    });

    it("alarms on TRON's deposits: a transfer confirming for over an hour, and a final transfer held rather than credited (naming npm run deposits:release)", () => {
      expect(anywhere('DepositsStuckConfirmingTron')).toMatchObject({ Namespace: 'Cambio', MetricName: 'OldestConfirmingTransferAge', Dimensions: appDimensions, Statistic: 'Maximum', Threshold: 3600, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
      const held = anywhere('DepositTransfersHeldTron');
      expect(held).toMatchObject({ Namespace: 'Cambio', MetricName: 'DepositTransfersHeld', Dimensions: appDimensions, Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(held.AlarmDescription).toMatch(/sender_sanctioned.*compliance.*npm run deposits:release/);
      // TRON backs an address off after three failed sweeps and alarms on it held (SweepsHeld), not on each failure.
      expect(Object.values(every.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'SweepsFailed')).toEqual([]);
    });

    it.each([
      ['POST /v1/deposits', 'DepositsCreateDeposit5xx'],
      ['POST /v1/withdrawals', 'WithdrawalsCreateWithdrawal5xx'],
      ['POST /v1/conversions', 'ConversionsCreateConversion5xx'],
      ['POST /v1/conversions/quote', 'ConversionsCreateQuote5xx'],
    ])('alarms on %s answering 5xx 5 times in two of three periods, by the requests its handler counts (%s)', (route, name) => {
      const alarm = anywhere(name);
      expect(alarm).toMatchObject({ Namespace: 'Cambio', MetricName: 'Requests', Statistic: 'Sum', Period: 300, Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(alarm.Dimensions).toEqual([
        { Name: 'route', Value: route },
        { Name: 'service', Value: 'cambio' },
        { Name: 'stage', Value: stage },
        { Name: 'statusClass', Value: '5xx' },
      ]);
    });

    it("alarms on the dashboard API's 5xx rate and p99 latency as on the /v1 API's, on the dashboard API's own stage", () => {
      const apis = resourcesOfType(template, 'AWS::ApiGateway::RestApi');
      const dashboardApi = Object.keys(apis).find((id) => apis[id]!.Properties!.Name === `cambio-${stage}-dashboard`)!;
      const stages = resourcesOfType(template, 'AWS::ApiGateway::Stage');
      const dashboardStage = Object.keys(stages).find((id) => stages[id]!.Properties!.RestApiId.Ref === dashboardApi)!;
      const onDashboardStage = [
        { Name: 'ApiName', Value: `cambio-${stage}-dashboard` },
        { Name: 'Stage', Value: { Ref: dashboardStage } },
      ];
      const rate = anywhere('DashboardApi5xxRate');
      const { expressions, metrics } = mathOf(rate);
      expect(expressions).toEqual(mathOf(named('Api5xxRate')).expressions);
      expect(metrics.map((metric: any) => [metric.MetricName, metric.Dimensions])).toEqual([
        ['Count', onDashboardStage],
        ['5XXError', onDashboardStage],
      ]);
      expect(rate).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    });

    it('alarms on throttling of the index GSI1 apart from the table\'s (DynamoDB counts it under the index alone)', () => {
      const alarm = anywhere('TableThrottledGSI1');
      const { expressions, metrics } = mathOf(alarm);
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;
      const onIndex = [{ Name: 'GlobalSecondaryIndexName', Value: 'GSI1' }, { Name: 'TableName', Value: { Ref: tableId } }];
      expect(expressions).toEqual(['FILL(reads, 0) + FILL(writes, 0)']);
      expect(metrics.map((metric: any) => [metric.Namespace, metric.MetricName, metric.Dimensions, metric.stat])).toEqual([
        ['AWS/DynamoDB', 'ReadThrottleEvents', onIndex, 'Sum'],
        ['AWS/DynamoDB', 'WriteThrottleEvents', onIndex, 'Sum'],
      ]);
      expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    });

    it.each([
      ['WithdrawalSenderFailing', JOBS.withdrawalSender.handler],
      ['DepositSweeperFailing', JOBS.depositSweeper.handler],
      ['ReconcileFailing', JOBS.reconcile.handler],
      ['WebhookDispatcherFailing', JOBS.webhookDispatcher.handler],
    ])('alarm %s watches the Errors of %s', (name, handler) => {
      const alarm = named(name);
      expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors' });
      expect(alarm.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: logicalIdOfFunction(template, functionName(stage, handler)) } }]);
    });

    it("alarms when EventBridge Scheduler's call to start the export fails, is throttled or is dropped, per the export's schedule group", () => {
      const alarm = named('FinanceExportNotStarted');
      const groups = Object.values(resourcesOfType(template, 'AWS::Scheduler::ScheduleGroup'));
      const schedule = Object.values(resourcesOfType(template, 'AWS::Scheduler::Schedule'))[0]!.Properties!;
      const stats = alarm.Metrics.filter((metric: any) => metric.MetricStat).map((metric: any) => metric.MetricStat.Metric);

      expect(groups).toHaveLength(1);
      const groupName = groups[0]!.Properties!.Name;
      expect(groupName).toBe(`Cambio-${stage}-finance`);
      // The export's schedule is in that group, so the group's metrics are the export's.
      expect(schedule.GroupName).toBe(groupName);
      expect(stats.map((metric: any) => metric.MetricName).sort()).toEqual(['InvocationDroppedCount', 'TargetErrorCount', 'TargetErrorThrottledCount']);
      for (const metric of stats) {
        expect(metric.Namespace).toBe('AWS/Scheduler');
        expect(metric.Dimensions).toEqual([{ Name: 'ScheduleGroup', Value: groupName }]);
      }
      expect(alarm.Metrics.find((metric: any) => metric.Expression).Expression).toBe('FILL(errors, 0) + FILL(throttled, 0) + FILL(dropped, 0)');
      expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    });

    it("alarms on the finance export check's verdict, and on the check itself failing two runs in a row", () => {
      expect(app(named('FinanceExportFailed'))).toEqual({ namespace: 'Cambio', metric: 'FinanceExportFailed', dimensions: appDimensions });
      expect(named('FinanceExportFailed')).toMatchObject({ Statistic: 'Maximum', Period: 3600, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const checkFailing = named('FinanceExportCheckFailing');
      expect(checkFailing).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', EvaluationPeriods: 2, DatapointsToAlarm: 2 });
      expect(checkFailing.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: logicalIdOfFunction(template, functionName(stage, JOBS.financeExportCheck.handler)) } }]);
    });

    // Another network's alarms, and every alarm added since the stage's template filled up, have a
    // nested stack of their own (test/infra/stack-size.test.ts); TRON's and the stage's made before
    // stay where deployed stages have them, as a moved named alarm would clash with itself (lib/observability.ts).
    it("has a dashboard showing every alarm, and the alarms added since the stage's template filled up in the nested stack", () => {
      template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      template.resourceCountIs('AWS::CloudFormation::Stack', 1);
      const inStage = alarms().map((alarm) => alarm.AlarmName);
      expect(inStage).toEqual(expect.arrayContaining([`Cambio-${stage}-ScannerLag`, `Cambio-${stage}-Api5xxRate`, `Cambio-${stage}-TableThrottled`]));
      expect(inStage).not.toContain(`Cambio-${stage}-WithdrawalSenderNotRunningTron`);
      const everyAlarm = Object.values(every.findResources('AWS::CloudWatch::Alarm'));
      expect(everyAlarm.length).toBeGreaterThan(inStage.length);
      // The alarm status widget names each alarm by its ARN, a nested stack's through its outputs.
      const body = JSON.stringify(Object.values(resourcesOfType(template, 'AWS::CloudWatch::Dashboard'))[0]!.Properties!.DashboardBody);
      expect(body.match(/\{"Fn::GetAtt":\["[^"]+","(?:Outputs\.[^"]+)?Arn"\]\}/g)).toHaveLength(everyAlarm.length);
    });
  });

  describe('finance export', () => {
    it('exports the table daily in DynamoDB JSON, point in time, into a versioned encrypted bucket refusing plain HTTP', () => {
      const bucketId = template.findOutputs('ExportBucketName').ExportBucketName!.Value.Ref as string;
      const bucket = resourcesOfType(template, 'AWS::S3::Bucket')[bucketId]!.Properties!;
      expect(bucket.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      expect(bucket.LoggingConfiguration.DestinationBucketName).toBeDefined();
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: bucketId },
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });

      const schedule = Object.values(resourcesOfType(template, 'AWS::Scheduler::Schedule'))[0]!.Properties!;
      expect(schedule.ScheduleExpression).toBe('cron(0 3 * * ? *)');
      expect(JSON.stringify(schedule.Target.Arn)).toContain(':scheduler:::aws-sdk:dynamodb:exportTableToPointInTime');
      const input = JSON.stringify(schedule.Target.Input);
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;
      for (const expected of ['DYNAMODB_JSON', 'AES256', '"S3Prefix\\":\\"exports', tableId, bucketId]) expect(input).toContain(expected);

      const roleId = schedule.Target.RoleArn['Fn::GetAtt'][0];
      const actions = policyStatementsOfRole(template, roleId).flatMap((statement) => [statement.Action].flat());
      // sqs:SendMessage: a start the scheduler gave up on goes to the schedules' dead-letter queue.
      expect(actions.sort()).toEqual(['dynamodb:ExportTableToPointInTime', 's3:AbortMultipartUpload', 's3:PutObject', 's3:PutObjectAcl', 'sqs:SendMessage']);
    });
  });

  describe('dashboard (lib/dashboard.ts)', () => {
    const dashboardApiId = () => Object.keys(resourcesOfType(template, 'AWS::ApiGateway::RestApi')).find((id) => id !== v1ApiId(template))!;
    const appBucketId = () => (template.findOutputs('DashboardBucketName').DashboardBucketName!.Value as { Ref: string }).Ref;

    it.each(DASHBOARD_ROUTES.map((route) => [routeName(route), route] as const))('%s is a method of the dashboard API, behind the session authorizer unless public', (name, route) => {
      const method = methodsByRoute(template, dashboardApiId()).get(name);
      expect(method, `no method for ${name}`).toBeDefined();
      expect(method!.AuthorizationType).toBe(route.auth === 'session' ? 'CUSTOM' : 'NONE');
      expect(JSON.stringify(method!.Integration.Uri)).toContain(logicalIdOfFunction(template, functionName(stage, DASHBOARD_API.handler)));
    });

    it('answers in the envelope whatever API Gateway answers by itself: a timed-out handler 500 INTERNAL_ERROR, a throttle 429 with Retry-After, an ended session 401', () => {
      const responses = Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse'))
        .map((response) => response.Properties!)
        .filter((response) => response.RestApiId.Ref === dashboardApiId());
      const byType = new Map(responses.map((response) => [response.ResponseType as string, response]));
      const answer = (type: string) => JSON.parse(byType.get(type)!.ResponseTemplates['application/json']).error;
      expect(answer('DEFAULT_5XX')).toEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', details: null });
      expect(answer('DEFAULT_4XX').code).toBe('VALIDATION_FAILED');
      expect(answer('MISSING_AUTHENTICATION_TOKEN').code).toBe('NOT_FOUND');
      expect(byType.get('THROTTLED')!.StatusCode).toBe('429');
      expect(byType.get('THROTTLED')!.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
      expect(answer('UNAUTHORIZED')).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringMatching(/sign in again/) });
      expect(byType.get('ACCESS_DENIED')!.StatusCode).toBe('401');
      // One each; the types not named (an authorizer that failed: 500) take their default's body.
      expect(responses).toHaveLength(byType.size);
    });

    it('verifies sessions from the Cookie header, in a function of its own, on every request (no cache: a sign-out ends sessions at once)', () => {
      const authorizer = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Authorizer')).find((a) => a.Properties!.RestApiId.Ref === dashboardApiId())!.Properties!;
      expect(authorizer.Type).toBe('REQUEST');
      expect(authorizer.IdentitySource).toBe('method.request.header.Cookie');
      expect(authorizer.AuthorizerResultTtlInSeconds).toBe(0);
      expect(JSON.stringify(authorizer.AuthorizerUri)).toContain(logicalIdOfFunction(template, functionName(stage, SESSION_AUTHORIZER.handler)));
    });

    it('keeps people in a user pool with the password policy, optional TOTP and no self sign-up', () => {
      template.hasResourceProperties('AWS::Cognito::UserPool', {
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 10, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }) },
      });
      template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
        GenerateSecret: false,
        PreventUserExistenceErrors: 'ENABLED',
        EnableTokenRevocation: true,
      });
    });

    it('serves every dashboard route from one function, the only one that may make users', () => {
      const integrations = DASHBOARD_ROUTES.map((route) => JSON.stringify(methodsByRoute(template, dashboardApiId()).get(routeName(route))!.Integration.Uri));
      expect(new Set(integrations).size).toBe(1);
      expect(integrations[0]).toContain(logicalIdOfFunction(template, functionName(stage, DASHBOARD_API.handler)));
      const makers = Object.values(cambioFunctions(resourcesOfType(template, 'AWS::Lambda::Function')))
        .map((fn) => String(fn.Properties!.FunctionName))
        .filter((name) => grantsOf(template, name).actions.includes('cognito-idp:AdminCreateUser'));
      expect(makers).toEqual([functionName(stage, DASHBOARD_API.handler)]);
    });

    it("serves Simulate payment from a function of its own behind the session authorizer, whose role reads and writes the table and nothing else but its logs and traces", () => {
      const method = methodsByRoute(template, dashboardApiId()).get(routeName(DASHBOARD_SIMULATOR));
      expect(method, 'no method for the simulator').toBeDefined();
      expect(method!.AuthorizationType).toBe('CUSTOM');
      const simulator = functionName(stage, DASHBOARD_SIMULATOR.handler);
      expect(JSON.stringify(method!.Integration.Uri)).toContain(logicalIdOfFunction(template, simulator));
      expect(JSON.stringify(method!.Integration.Uri)).not.toContain(logicalIdOfFunction(template, functionName(stage, DASHBOARD_API.handler)));
      const { actions, dynamoResources } = grantsOf(template, simulator);
      const tableId = Object.keys(resourcesOfType(template, 'AWS::DynamoDB::Table'))[0]!;
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
      expect(actions.filter((action) => !/^(dynamodb|logs|xray):/.test(action))).toEqual([]);
      for (const resource of dynamoResources) expect(JSON.stringify(resource)).toContain(tableId);
    });

    it.each(DASHBOARD_DOWNLOADS.map((route) => [routeName(route), route] as const))('%s streams from a function of its own, with read access only, behind the session authorizer', (name, route) => {
      const method = methodsByRoute(template, dashboardApiId()).get(name);
      expect(method, `no method for ${name}`).toBeDefined();
      expect(method!.AuthorizationType).toBe('CUSTOM');
      expect(method!.Integration.ResponseTransferMode).toBe('STREAM');
      // Response streaming invokes through InvokeWithResponseStream's own path.
      expect(JSON.stringify(method!.Integration.Uri)).toContain('/response-streaming-invocations');
      expect(JSON.stringify(method!.Integration.Uri)).toContain(logicalIdOfFunction(template, functionName(stage, route.handler)));
      const writes = grantsOf(template, functionName(stage, route.handler)).actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|TransactWrite)/.test(action));
      expect(writes).toEqual([]);
    });

    it('serves the app from a private bucket through CloudFront with origin access control, HTTPS, security headers and SPA routing, and the API under /dashboard/api/*', () => {
      template.hasResourceProperties('AWS::S3::Bucket', { PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } });
      template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
      const distribution = Object.values(resourcesOfType(template, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig;
      expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(distribution.DefaultCacheBehavior.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
      expect(distribution.CacheBehaviors).toEqual([expect.objectContaining({ PathPattern: 'dashboard/api/*', ViewerProtocolPolicy: 'https-only' })]);
      // A download (a statement reading the ledger before its first row) may be silent for longer
      // than CloudFront's default 30 s between packets.
      const apiOrigin = distribution.Origins.find((origin: { Id: string }) => origin.Id === distribution.CacheBehaviors[0].TargetOriginId);
      expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginReadTimeout: 60 });
      template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
        ResponseHeadersPolicyConfig: {
          SecurityHeadersConfig: Match.objectLike({
            ContentSecurityPolicy: Match.objectLike({ ContentSecurityPolicy: Match.stringLikeRegexp("script-src 'self'") }),
            FrameOptions: Match.objectLike({ FrameOption: 'DENY' }),
            StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31536000 }),
          }),
        },
      });
    });

    it('uploads the built app itself during cdk deploy: the hashed files first, cached a year, then index.html with no-cache and an invalidation of /dashboard/*, pruning nothing', () => {
      const appBucket = appBucketId();
      const distributionId = Object.keys(resourcesOfType(template, 'AWS::CloudFront::Distribution'))[0]!;
      const uploads = Object.entries(resourcesOfType(template, 'Custom::CDKBucketDeployment'));
      expect(uploads).toHaveLength(2);
      const [filesId, files] = uploads.find(([, upload]) => upload.Properties!.Include === undefined)!;
      const [, page] = uploads.find(([, upload]) => upload.Properties!.Include !== undefined)!;

      for (const upload of [files, page]) {
        expect(upload.Properties).toMatchObject({ DestinationBucketName: { Ref: appBucket }, DestinationBucketKeyPrefix: 'dashboard/', Prune: false });
        // One build of the app feeds both.
        expect(upload.Properties!.SourceObjectKeys).toEqual(files.Properties!.SourceObjectKeys);
      }
      expect(files.Properties).toMatchObject({ Exclude: ['index.html'], SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' } });
      expect(files.Properties!.DistributionId).toBeUndefined();
      expect(page.Properties).toMatchObject({
        Exclude: ['*'],
        Include: ['index.html'],
        SystemMetadata: { 'cache-control': 'no-cache' },
        DistributionId: { Ref: distributionId },
        DistributionPaths: ['/dashboard/*'],
      });
      expect((page as Resource & { DependsOn?: string[] }).DependsOn ?? []).toContain(filesId);
      // Filled by every deploy, so a stack deletion leaves it rather than failing on a non-empty bucket.
      expect(resourcesOfType(template, 'AWS::S3::Bucket')[appBucket]!.DeletionPolicy).toBe('Retain');
    });

    it("runs the upload in CDK's one upload function, with a role of its own that writes to the app bucket alone and logs kept as the stage's", () => {
      const appBucket = appBucketId();
      const uploaders = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(([id]) => isAppUploadFunction(id));
      expect(uploaders).toHaveLength(1);
      const uploader = uploaders[0]![1].Properties!;
      for (const [, upload] of Object.entries(resourcesOfType(template, 'Custom::CDKBucketDeployment'))) expect(upload.Properties!.ServiceToken['Fn::GetAtt'][0]).toBe(uploaders[0]![0]);

      const writes = policyStatementsOfRole(template, uploader.Role['Fn::GetAtt'][0])
        .filter((statement) => [statement.Action].flat().some((action) => /^s3:(Put|Delete)/.test(action)))
        .flatMap((statement) => [statement.Resource].flat());
      expect(writes.length).toBeGreaterThan(0);
      for (const resource of writes) expect(JSON.stringify(resource)).toContain(`"${appBucket}"`);
      expect(resourcesOfType(template, 'AWS::Logs::LogGroup')[uploader.LoggingConfig.LogGroup.Ref]!.Properties!.RetentionInDays).toBe(config.logRetentionDays);
    });
  });

  it.each(['ApiUrl', 'TableName', 'WebhookQueueUrl', 'WebhookDlqUrl', 'AlarmTopicArn', 'ExportBucketName', 'FinanceGlueDatabase', 'FinanceAthenaWorkGroup', 'FinanceQueryPolicyArn', 'LedgerCsvFunctionName', 'DashboardName', 'DashboardUrl', 'DashboardBucketName'])('outputs %s', (name) => {
    expect(Object.keys(template.findOutputs(name))).toEqual([name]);
  });
});

function functionName(stage: string, handler: string): string {
  return `Cambio-${stage}-${lambdaName(handler)}`;
}

function logicalIdOfFunction(template: Template, name: string): string {
  const entry = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).find(([, fn]) => fn.Properties!.FunctionName === name);
  if (!entry) throw new Error(`No function named ${name}`);
  return entry[0];
}

function policyStatementsOfRole(template: Template, roleId: string): { Action: string | string[]; Resource: unknown }[] {
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties!.Roles as { Ref?: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties!.PolicyDocument.Statement);
}

/** The webhook dead-letter queue, as the stack outputs it (the stack has other dead-letter queues). */
function webhookDlqId(template: Template): string {
  const url = template.findOutputs('WebhookDlqUrl').WebhookDlqUrl!.Value as { Ref: string };
  return url.Ref;
}

/** The /v1 API's authorizer (the dashboard API has its own). */
function authorizerId(template: Template): string {
  const v1 = v1ApiId(template);
  return Object.entries(resourcesOfType(template, 'AWS::ApiGateway::Authorizer')).find(([, authorizer]) => authorizer.Properties!.RestApiId.Ref === v1)![0];
}

function v1ApiId(template: Template): string {
  return Object.entries(resourcesOfType(template, 'AWS::ApiGateway::RestApi')).find(([, api]) => !String(api.Properties!.Name).endsWith('-dashboard'))![0];
}

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string };

/**
 * The stage's stack as `cdk synth -c stage=…` builds it, minus esbuild (context
 * `aws:cdk:bundling-stacks`): assets keep their hashes but nothing is bundled, which is all a
 * template assertion needs. test/infra/bundles.test.ts covers the bundles.
 */
function stageStack(stage: string): CambioStack {
  return addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } }));
}

/**
 * Whether a synthesized WAF statement built from label matches and And/Or/Not matches a request
 * carrying these fully qualified labels (LABEL: the label itself; NAMESPACE: any label under it).
 */
function labelStatementMatches(statement: Record<string, any>, labels: string[]): boolean {
  if (statement.LabelMatchStatement) {
    const { Scope, Key } = statement.LabelMatchStatement as { Scope: string; Key: string };
    return labels.some((label) => (Scope === 'LABEL' ? label === Key : label.startsWith(Key)));
  }
  if (statement.AndStatement) return statement.AndStatement.Statements.every((inner: Record<string, any>) => labelStatementMatches(inner, labels));
  if (statement.OrStatement) return statement.OrStatement.Statements.some((inner: Record<string, any>) => labelStatementMatches(inner, labels));
  if (statement.NotStatement) return !labelStatementMatches(statement.NotStatement.Statement, labels);
  throw new Error(`Not a label statement: ${JSON.stringify(statement)}`);
}

/**
 * Whether a synthesized WAF statement built from regex matches (a single header, the URI path) and
 * And/Or/Not matches a request. WAF's expressions here use only what JavaScript's read alike.
 */
function requestStatementMatches(statement: Record<string, any>, request: { path: string; headers: Record<string, string> }): boolean {
  if (statement.RegexMatchStatement) {
    const { RegexString, FieldToMatch, TextTransformations } = statement.RegexMatchStatement as { RegexString: string; FieldToMatch: Record<string, any>; TextTransformations: { Type: string }[] };
    let value = FieldToMatch.UriPath ? request.path : request.headers[FieldToMatch.SingleHeader.Name];
    if (value === undefined) return false;
    for (const { Type } of TextTransformations) {
      if (Type === 'URL_DECODE') value = decodeURIComponent(value);
      else if (Type !== 'NONE') throw new Error(`Transformation ${Type} not modelled`);
    }
    return new RegExp(RegexString).test(value);
  }
  if (statement.AndStatement) return statement.AndStatement.Statements.every((inner: Record<string, any>) => requestStatementMatches(inner, request));
  if (statement.OrStatement) return statement.OrStatement.Statements.some((inner: Record<string, any>) => requestStatementMatches(inner, request));
  if (statement.NotStatement) return !requestStatementMatches(statement.NotStatement.Statement, request);
  throw new Error(`Not a request statement: ${JSON.stringify(statement)}`);
}

function resourcesOfType(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** Logical id of each AWS::ApiGateway::Resource → its full path (`/v1/company/balance`). */
function resourcePaths(template: Template): Map<string, string> {
  const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const { ParentId, PathPart } = resources[id]!.Properties!;
    // The root resource is `Fn::GetAtt [RestApi, RootResourceId]`; any other parent is a Ref.
    const parent = ParentId.Ref ? pathOf(ParentId.Ref) : '';
    const path = `${parent}/${PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(resources)) pathOf(id);
  return paths;
}

/** The API Gateway methods of one API (the /v1 one unless told) as `GET /v1/company` → the method's properties. */
function methodsByRoute(template: Template, apiId = v1ApiId(template)): Map<string, Record<string, any>> {
  const paths = resourcePaths(template);
  const methods = new Map<string, Record<string, any>>();
  for (const method of Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method'))) {
    const props = method.Properties!;
    if (props.RestApiId.Ref !== apiId) continue;
    const path = props.ResourceId.Ref ? paths.get(props.ResourceId.Ref) : '/';
    methods.set(`${props.HttpMethod} ${path}`, props);
  }
  return methods;
}

/** Every IAM action granted to the role of the function with this FunctionName, and the resources of DynamoDB statements. */
function grantsOf(template: Template, functionName: string): { actions: string[]; dynamoResources: unknown[] } {
  const functions = Object.values(resourcesOfType(template, 'AWS::Lambda::Function'));
  const fn = functions.find((candidate) => candidate.Properties!.FunctionName === functionName);
  if (!fn) throw new Error(`No function named ${functionName}`);
  const roleId: string = fn.Properties!.Role['Fn::GetAtt'][0];
  const actions: string[] = [];
  const dynamoResources: unknown[] = [];
  for (const policy of Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))) {
    const roles: unknown[] = policy.Properties!.Roles;
    if (!roles.some((role) => (role as { Ref?: string }).Ref === roleId)) continue;
    for (const statement of policy.Properties!.PolicyDocument.Statement) {
      const statementActions: string[] = [statement.Action].flat();
      actions.push(...statementActions);
      if (statementActions.some((action) => action.startsWith('dynamodb:'))) dynamoResources.push(...[statement.Resource].flat());
    }
  }
  return { actions, dynamoResources };
}
