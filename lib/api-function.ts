import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing, type EnvironmentOptions } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { FUNCTION_SETTINGS, isFunctionName, type FunctionName } from '../functions/settings/functions.ts';
import { isOptional, type SettingName } from '../functions/settings/schema.ts';
import { lambdaName } from '../functions/routes.ts';
import { accept } from './nag-suppressions.ts';
import type { StageConfig } from '../config/stages.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Lambda's runtime ships the AWS SDK v3; leaving it out keeps each bundle well under 300 KB
 * (a function that needs more of the SDK than its clients bundles all of it: bundlesAwsSdk). */
const PROVIDED_BY_RUNTIME = ['@aws-sdk/*'];

/** ESM output cannot `require`; a few CommonJS dependencies still do, so give them one. */
const CREATE_REQUIRE_BANNER =
  "import { createRequire as __cambioCreateRequire } from 'node:module'; const require = __cambioCreateRequire(import.meta.url);";

export interface CambioFunctionProps {
  /** Module under functions/ without `.ts` (`company/get-company`); it exports `handler`. Its
   * settings slice (functions/settings/functions.ts) is what the function is given. */
  handler: string;
  /** The stage: its figures (config/stages.ts) fill the slice's stage settings. */
  config: StageConfig;
  /** The deposit account xpub, resolved by the stack (a literal or an SSM reference). */
  depositAccountXpub: string;
  /** What the function uses, each passing its reference and granting its access (lib/binders.ts). */
  bind?: Binder[];
  timeout?: Duration;
  /** MB; 512 unless a function's work needs more. */
  memorySize?: number;
  /** Concurrency set aside for this function alone, and its ceiling (config/stages.ts safeguards). */
  reservedConcurrentExecutions?: number;
  /**
   * Bundle the AWS SDK instead of taking the runtime's: for a function that needs an SDK package
   * beyond the service clients (lib-storage), which Lambda does not document as provided. All of
   * it, as the SDK's maintainers advise, never a bundled part beside the runtime's other parts.
   */
  bundlesAwsSdk?: boolean;
}

/**
 * The one way Cambio makes a Lambda, so every function gets the same defaults: ARM64 on Node 22,
 * a minified ESM bundle with source maps, its own log group with the stage's retention (and a role
 * that may write to that group alone), X-Ray active tracing. Its environment is its settings slice
 * and nothing else: the stage's figures for the slice's stage settings, and what its binders pass
 * (a table's name, a queue's URL, a key's id), each binder granting the access that goes with the
 * reference, as Powertools' example app binds a table to a function. A binder naming a setting
 * outside the slice throws; a required setting nothing gave fails the synth.
 */
export class CambioFunction extends NodejsFunction {
  readonly handlerModule: FunctionName;
  private readonly slice: ReadonlySet<SettingName>;
  private readonly bound = new Set<SettingName>();

  constructor(scope: Construct, props: CambioFunctionProps) {
    if (!isFunctionName(props.handler)) throw new Error(`${props.handler} has no settings slice in functions/settings/functions.ts`);
    const id = lambdaName(props.handler);
    const { logGroup, role } = functionLogging(scope, id, props.config);
    super(scope, id, {
      functionName: `${Stack.of(scope).stackName}-${id}`,
      role,
      entry: path.join(PROJECT_ROOT, 'functions', 'handlers', `${props.handler}.ts`),
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
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: CREATE_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // File and line numbers are what a stack trace needs; the sources would only double the asset.
        sourcesContent: false,
        externalModules: props.bundlesAwsSdk ? [] : PROVIDED_BY_RUNTIME,
        logLevel: LogLevel.WARNING,
      },
    });
    this.handlerModule = props.handler;
    this.slice = new Set(FUNCTION_SETTINGS[props.handler as FunctionName]);
    const stageValues: Partial<Record<SettingName, string>> = {
      ...props.config.functionEnvironment,
      STAGE: props.config.stage,
      STAGE_ENVIRONMENT: props.config.environment,
      DEPOSIT_ACCOUNT_XPUB: props.depositAccountXpub,
      NODE_OPTIONS: '--enable-source-maps',
    };
    for (const name of this.slice) {
      const value = stageValues[name];
      if (value !== undefined) this.setting(name, value);
    }
    this.bind(...(props.bind ?? []));
    this.node.addValidation({
      validate: () =>
        [...this.slice]
          .filter((name) => !isOptional(name) && !this.bound.has(name))
          .map((name) => `${props.handler} reads ${name} (functions/settings/functions.ts), but no stage figure or binder gives it a value`),
    });
    accept(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      "Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which define no resource type in the Service Authorization Reference (AWS's AWSXrayWriteOnlyAccess grants them on * too); test/infra/tracing.test.ts fails if any other action is granted on * without a reason of its own.",
    );
  }

  /** Passes each binder's references as settings and lets it grant what goes with them. */
  bind(...binders: Binder[]): this {
    for (const binder of binders) for (const [name, value] of Object.entries(binder(this))) this.setting(name as SettingName, value);
    return this;
  }

  private setting(name: SettingName, value: string): void {
    this.addEnvironment(name, value);
  }

  /** Every variable, bound or added, must be one its slice names (constructs that take an IFunction add theirs this way). */
  override addEnvironment(key: string, value: string, options?: EnvironmentOptions): this {
    // NodejsFunction's own constructor may add runtime variables before the slice is known.
    if (this.slice === undefined) return super.addEnvironment(key, value, options);
    if (!this.slice.has(key as SettingName)) throw new Error(`${this.handlerModule} is given ${key}, which its settings slice does not name (functions/settings/functions.ts)`);
    this.bound.add(key as SettingName);
    return super.addEnvironment(key, value, options);
  }
}

/**
 * A binder gives a function a resource: the settings that name it (a table's name, a queue's URL)
 * and the access it needs to it, granted on the function's role (lib/binders.ts).
 */
export type Binder = (fn: CambioFunction) => Partial<Record<SettingName, string>>;

/**
 * A function's own log group (the stage's retention, kept with the data on a protected stage) and
 * its own role, allowed to write to that log group and nothing else until the stack grants more
 * (AWSLambdaBasicExecutionRole would allow writing to every log group in the account). Every
 * CambioFunction has them, and so does CDK's dashboard upload function (lib/dashboard.ts).
 */
export function functionLogging(scope: Construct, id: string, config: StageConfig): { logGroup: LogGroup; role: Role } {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: retentionDays(config.logRetentionDays),
    removalPolicy: config.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
  return { logGroup, role };
}

export function retentionDays(days: number): RetentionDays {
  const known = Object.values(RetentionDays).filter((value): value is RetentionDays => typeof value === 'number');
  const match = known.find((value) => value === days);
  if (match === undefined) throw new Error(`logRetentionDays ${days} is not a CloudWatch Logs retention (${known.join(', ')})`);
  return match;
}
