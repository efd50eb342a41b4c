import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { accept } from './nag-suppressions.ts';
import type { StageConfig } from './stages.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Lambda's runtime ships the AWS SDK v3; leaving it out keeps each bundle well under 300 KB. */
const PROVIDED_BY_RUNTIME = ['@aws-sdk/*'];

/** ESM output cannot `require`; a few CommonJS dependencies still do, so give them one. */
const CREATE_REQUIRE_BANNER =
  "import { createRequire as __cambioCreateRequire } from 'node:module'; const require = __cambioCreateRequire(import.meta.url);";

export interface ApiFunctionProps {
  /** Module under functions/ without `.ts` (`company/get-company`); it exports `handler`. */
  handler: string;
  functionName: string;
  config: StageConfig;
  tableName: string;
  /** The deposit account xpub, resolved by the stack (a literal or an SSM reference). */
  depositAccountXpub: string;
  timeout?: Duration;
  /** MB; 512 unless a function's work needs more. */
  memorySize?: number;
  /** Concurrency set aside for this function alone, and its ceiling (lib/stages.ts safeguards). */
  reservedConcurrentExecutions?: number;
}

/**
 * The one way Cambio makes a Lambda, so every function gets the same defaults: ARM64 on Node 22,
 * a minified ESM bundle with source maps, its own log group with the stage's retention (and a role
 * that may write to that group alone), X-Ray active tracing, and the
 * environment every handler reads at cold start (functions/adapters/runtime.ts). Table access is
 * granted by the caller, per function.
 */
export class ApiFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: retentionDays(props.config.logRetentionDays),
      removalPolicy: props.config.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Its own role, allowed to write to its own log group and nothing else until the stack grants
    // more (AWSLambdaBasicExecutionRole would allow writing to every log group in the account).
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
    super(scope, id, {
      functionName: props.functionName,
      role,
      entry: path.join(PROJECT_ROOT, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      logGroup,
      // Lambda records each invocation in the trace API Gateway started (or a new one), at no bundle
      // cost; the jobs and the webhook sender add subsegments with Powertools' tracer (functions/adapters/tracing.ts).
      tracing: Tracing.ACTIVE,
      environment: {
        TABLE_NAME: props.tableName,
        STAGE: props.config.stage,
        ...props.config.functionEnvironment,
        DEPOSIT_ACCOUNT_XPUB: props.depositAccountXpub,
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: CREATE_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // File and line numbers are what a stack trace needs; the sources would only double the asset.
        sourcesContent: false,
        externalModules: PROVIDED_BY_RUNTIME,
        logLevel: LogLevel.WARNING,
      },
    });
    accept(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      "Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which define no resource type in the Service Authorization Reference (AWS's AWSXrayWriteOnlyAccess grants them on * too); test/infra/tracing.test.ts fails if any other action is granted on * without a reason of its own.",
    );
  }
}

export function retentionDays(days: number): RetentionDays {
  const known = Object.values(RetentionDays).filter((value): value is RetentionDays => typeof value === 'number');
  const match = known.find((value) => value === days);
  if (match === undefined) throw new Error(`logRetentionDays ${days} is not a CloudWatch Logs retention (${known.join(', ')})`);
  return match;
}
