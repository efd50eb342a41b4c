import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, lambdaName, JOBS } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { STAGES } from '../../config/stages.ts';
import { RATE_LIMIT_TIERS } from '../../functions/api-keys/rate-limits.ts';

/** Issue #18 item 2: per-company limits in API Gateway (README, Rate limits; lib/rate-limits.ts). */
type Resource = { Properties: Record<string, any> };
const resources = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;
/** The /v1 API (the dashboard's API is another, with its own session authorizer and one usage plan
 * for the key its CloudFront distribution holds: lib/dashboard-origin-key.ts). */
const v1Api = (template: Template) => Object.entries(resources(template, 'AWS::ApiGateway::RestApi')).find(([, api]) => !String(api.Properties.Name).endsWith('-dashboard'))!;
/** The /v1 API's usage plans, by logical id: the rate limit tiers. */
const tierPlans = (template: Template): Record<string, Resource> =>
  Object.fromEntries(Object.entries(resources(template, 'AWS::ApiGateway::UsagePlan')).filter(([, plan]) => plan.Properties.ApiStages.some((s: { ApiId: { Ref: string } }) => s.ApiId.Ref === v1Api(template)[0])));

describe.each(['sandbox', 'production'] as const)('Cambio-%s per-company rate limits', (stage) => {
  const config = STAGES[stage];
  let template: Template;

  beforeAll(() => {
    template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  }, 60_000);

  it("takes each request's usage plan key from the authorizer, and requires one on every method", () => {
    const [apiId, api] = v1Api(template);
    const methods = Object.values(resources(template, 'AWS::ApiGateway::Method')).filter((method) => method.Properties.RestApiId.Ref === apiId);

    expect(api!.Properties.ApiKeySourceType).toBe('AUTHORIZER');
    expect(methods).toHaveLength(ROUTES.length);
    for (const method of methods) expect(method.Properties.ApiKeyRequired).toBe(true);
  });

  it("has one usage plan per tier, each on this stage at its tier's figures, below the stage's own limit", () => {
    const plans = Object.values(tierPlans(template)).map((plan) => plan.Properties);
    const [apiId] = v1Api(template);
    const stageId = Object.entries(resources(template, 'AWS::ApiGateway::Stage')).find(([, candidate]) => candidate.Properties.RestApiId.Ref === apiId)![0];

    expect(plans.map((plan) => [plan.UsagePlanName, plan.Throttle])).toEqual(
      RATE_LIMIT_TIERS.map((tier) => [`Cambio-${stage}-${tier}`, { RateLimit: config.capacity.tiers[tier].rateLimit, BurstLimit: config.capacity.tiers[tier].burstLimit }]),
    );
    for (const plan of plans) {
      expect(plan.Quota).toBeUndefined();
      // CDK adds an empty per-method throttle map: the plan's own throttle applies to every method.
      expect(plan.ApiStages).toEqual([expect.objectContaining({ ApiId: { Ref: apiId }, Stage: { Ref: stageId } })]);
      expect(plan.Throttle.RateLimit).toBeLessThan(config.throttle.rateLimit);
      expect(plan.Throttle.BurstLimit).toBeLessThan(config.throttle.burstLimit);
    }
    // The standard tier's plan is the stage's plan from before tiers, so existing keys stay in it.
    expect(Object.keys(tierPlans(template))[0]).toMatch(/^CompanyRateLimitsDefaultPlan/);
  });

  it("creates each company's key from the table stream, filtered to inserted and changed Company items, and may only create keys and put them in or take them out of this stage's tier plans", () => {
    const functions = resources(template, 'AWS::Lambda::Function');
    const [provisionerId, provisioner] = Object.entries(functions).find(([, fn]) => fn.Properties.FunctionName === `Cambio-${stage}-${lambdaName(JOBS.usageKeyProvisioner.handler)}`)!;
    const planIds = Object.keys(tierPlans(template));
    const mapping = Object.values(resources(template, 'AWS::Lambda::EventSourceMapping')).find((candidate) => candidate.Properties.FunctionName.Ref === provisionerId)!.Properties;
    const tableId = Object.keys(resources(template, 'AWS::DynamoDB::Table'))[0]!;

    // The setting is JSON joined around each plan's Ref: read with each Ref as its plan's logical id.
    const joined = provisioner.Properties.Environment.Variables.USAGE_PLAN_IDS['Fn::Join'][1] as (string | { Ref: string })[];
    const planOfTier = JSON.parse(joined.map((part) => (typeof part === 'string' ? part : part.Ref)).join(''));
    const plansByName = Object.fromEntries(Object.entries(tierPlans(template)).map(([id, plan]) => [plan.Properties.UsagePlanName, id]));
    expect(planOfTier).toEqual(Object.fromEntries(RATE_LIMIT_TIERS.map((tier) => [tier, plansByName[`Cambio-${stage}-${tier}`]])));
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
    expect(mapping.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern))).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['Company'] } } } },
      { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: ['Company'] } } } },
    ]);
    expect(mapping.DestinationConfig.OnFailure.Destination).toBeDefined();
    const roleId = provisioner.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(resources(template, 'AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const apiGateway = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('apigateway:')));
    expect(apiGateway.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(['apigateway:DELETE', 'apigateway:GET', 'apigateway:POST', 'apigateway:POST', 'apigateway:PUT']);
    const onPlans = apiGateway.filter((statement) => JSON.stringify(statement.Resource).includes('/usageplans/'));
    expect(onPlans.map((statement) => [[statement.Action].flat(), [statement.Resource].flat().length])).toEqual([
      [['apigateway:POST'], RATE_LIMIT_TIERS.length],
      [['apigateway:DELETE'], RATE_LIMIT_TIERS.length],
    ]);
    for (const planId of planIds) expect(JSON.stringify(onPlans)).toContain(planId);
    const writes = statements.flatMap((statement) => [statement.Action].flat()).filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));
    expect(writes).toEqual([]);
  });
});
