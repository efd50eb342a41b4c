import { CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { JOBS } from '../functions/routes.ts';
import { FIRST_TIER, RATE_LIMIT_TIERS, type RateLimitTier } from '../functions/api-keys/rate-limits.ts';
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
 * `usageIdentifierKey` (the company's key value) picks the key, and the usage plan of the company's
 * tier throttles each key on its own: one plan per tier of the capacity model (config/capacity.ts),
 * since a usage plan has one throttle. Only the tiers' figures exist, so `npm run company:limits`
 * accepts no other.
 *
 * Each company's key is made when the company is, and moved to another tier's plan when its tier
 * changes, by a function on the table's stream filtered to inserted and changed Company items
 * (functions/handlers/jobs/usage-key-provisioner.ts), not by the code that creates or changes
 * companies: that code also runs locally and in scripts, where there is no API Gateway to call, and
 * a CDK custom resource runs at deploy time only, not when a company signs up. The stream sees every
 * change, whatever made it, and its retries make the key certain to follow.
 */
export class CompanyRateLimits extends Construct {
  readonly plans: Record<RateLimitTier, UsagePlan>;
  readonly provisioner: CambioFunction;

  constructor(scope: Construct, id: string, props: CompanyRateLimitsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { tiers } = props.config.capacity;
    this.plans = Object.fromEntries(
      RATE_LIMIT_TIERS.map((tier) => [
        tier,
        new UsagePlan(this, planId(tier), {
          name: `${stack.stackName}-${tier}`,
          description: `Each company's own limit at the ${tier} tier on Cambio ${props.config.stage} (config/capacity.ts)`,
          throttle: tiers[tier],
          apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
        }),
      ]),
    ) as Record<RateLimitTier, UsagePlan>;
    const planIds = Object.fromEntries(RATE_LIMIT_TIERS.map((tier) => [tier, this.plans[tier].usagePlanId])) as Record<RateLimitTier, string>;

    this.provisioner = new CambioFunction(stack, {
      handler: JOBS.usageKeyProvisioner.handler,
      config: props.config,
      depositAccountXpub: props.depositAccountXpub,
      bind: [usagePlanKeys(planIds)],
      timeout: Duration.seconds(30),
    });
    accept(
      this.provisioner.role!,
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/tags/*]',
      "API Gateway authorises tagging a key on /tags/<the key's ARN>, and the key's id is only known once it is created; the role may otherwise only create keys and add them to, or take them out of, this stage's tier plans.",
    );
    for (const tier of RATE_LIMIT_TIERS) {
      accept(
        this.provisioner.role!,
        `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<${stack.getLogicalId(this.plans[tier].node.defaultChild as CfnElement)}>/keys/*]`,
        "Taking a company's key out of a tier's plan is authorised on /usageplans/<plan>/keys/<the key's id>, one per company, made as companies are; the wildcard is under this stage's tier plans only.",
      );
    }
    accept(this.provisioner.role!, 'AwsSolutions-IAM5[Resource::*]', 'dynamodb:ListStreams, which the stream event source needs, has no resource-level permission.');
    const companyImage = { type: { S: FilterRule.isEqual('Company') } };
    this.provisioner.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        retryAttempts: 10,
        bisectBatchOnError: true,
        onFailure: new SqsDlq(props.streamFailures),
        // A new company, and a company changed (its tier, by `npm run company:limits`): the function
        // skips a change that left the tier as it was.
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: companyImage } }),
          FilterCriteria.filter({ eventName: FilterRule.isEqual('MODIFY'), dynamodb: { NewImage: companyImage } }),
        ],
      }),
    );
  }
}

/** The first tier's plan keeps the id of the stage's one plan before tiers: a new id would replace it,
 * and every existing company's key would leave it. */
const planId = (tier: RateLimitTier) => (tier === FIRST_TIER ? 'DefaultPlan' : `${tier[0]!.toUpperCase()}${tier.slice(1)}Plan`);
