import { Duration, Stack } from 'aws-cdk-lib';
import { UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { JOBS } from '../functions/routes.ts';
import { CambioFunction } from './api-function.ts';
import { usagePlanKeys } from './binders.ts';
import { accept } from './nag-suppressions.ts';
import type { StageConfig } from '../config/stages.ts';

export interface CompanyRateLimitsProps {
  api: RestApi;
  config: StageConfig;
  table: ITable;
  depositAccountXpub: string;
  /** Where the stream's failed batches are recorded (lib/safeguards.ts FailedInvocations). */
  streamFailures: IQueue;
}

/**
 * Per-company rate limits in API Gateway (README, Rate limits; functions/api-keys/rate-limits.ts).
 * The API's key source is AUTHORIZER and every method requires a key, so the authorizer's
 * `usageIdentifierKey` (the company's key value) picks the key, and this stage's usage plan
 * throttles each key on its own at `companyRateLimit`.
 *
 * Each company's key is made when the company is, by a function on the table's stream filtered to
 * inserted Company items (functions/handlers/jobs/usage-key-provisioner.ts), not by the code that creates
 * companies: that code also runs locally and in scripts, where there is no API Gateway to call,
 * and a CDK custom resource runs at deploy time only, not when a company signs up. The stream
 * sees every creation, whatever made it, and its retries make the key certain to follow.
 */
export class CompanyRateLimits extends Construct {
  readonly plan: UsagePlan;
  readonly provisioner: CambioFunction;

  constructor(scope: Construct, id: string, props: CompanyRateLimitsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.plan = new UsagePlan(this, 'DefaultPlan', {
      name: `${stack.stackName}-default`,
      description: `Each company's own limit on Cambio ${props.config.stage} (config/stages.ts companyRateLimit)`,
      throttle: props.config.companyRateLimit,
      apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
    });

    this.provisioner = new CambioFunction(stack, {
      handler: JOBS.usageKeyProvisioner.handler,
      config: props.config,
      depositAccountXpub: props.depositAccountXpub,
      bind: [usagePlanKeys(this.plan.usagePlanId)],
      timeout: Duration.seconds(30),
    });
    accept(
      this.provisioner.role!,
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/tags/*]',
      "API Gateway authorises tagging a key on /tags/<the key's ARN>, and the key's id is only known once it is created; the role may otherwise only create keys and add them to this stage's usage plan.",
    );
    accept(this.provisioner.role!, 'AwsSolutions-IAM5[Resource::*]', 'dynamodb:ListStreams, which the stream event source needs, has no resource-level permission.');
    this.provisioner.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        retryAttempts: 10,
        bisectBatchOnError: true,
        onFailure: new SqsDlq(props.streamFailures),
        filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual('Company') } } } })],
      }),
    );
  }
}
