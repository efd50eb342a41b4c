import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DOWNLOADS, JOBS, lambdaName } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { signingJobConcurrencyOf } from '../../lib/networks/registry.ts';
import { STAGES } from '../../config/stages.ts';
import { ACCOUNT_API_REQUESTS_PER_SECOND, concurrencyNeeded, DASHBOARD_DOWNLOAD_CONCURRENCY, firstTierOf, highestTierOf, stageThrottleOf, tierProblemsOf, tiersOf, wafRatePer5MinutesOf } from '../../config/capacity.ts';

/**
 * The stack follows the capacity model (config/capacity.ts, docs/capacity.md), issue #45: every
 * throttle, the WAF rule, the webhook sender's ceiling and every function's reserved concurrency are
 * what the model says, and what the model says fits the account's quotas. A figure set by hand in
 * lib/ that departs from it fails here.
 */
type Resource = { Properties: Record<string, any> };
const resources = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;
const apis = (template: Template) => Object.entries(resources(template, 'AWS::ApiGateway::RestApi'));
const stageOf = (template: Template, apiId: string) => Object.values(resources(template, 'AWS::ApiGateway::Stage')).find((stage) => stage.Properties.RestApiId.Ref === apiId)!.Properties;
/** A function's name is the stack's and the handler's (lib/api-function.ts). */
const named = (functionName: unknown, handler: string) => String(functionName).endsWith(`-${lambdaName(handler)}`);
const throttleOf = (stage: Record<string, any>) => {
  const all = stage.MethodSettings.find((setting: any) => setting.HttpMethod === '*' && setting.ResourcePath === '/*');
  return { rateLimit: all.ThrottlingRateLimit, burstLimit: all.ThrottlingBurstLimit };
};

describe.each(['sandbox', 'production'] as const)('Cambio-%s follows its capacity model', (stage) => {
  const { capacity } = STAGES[stage];
  let template: Template;
  const functionsByName = () => Object.values(resources(template, 'AWS::Lambda::Function')).map((fn) => fn.Properties);

  beforeAll(() => {
    template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  }, 60_000);

  it('throttles the /v1 stage at every company at the standard tier at once, each company at its tier, and the dashboard at its own', () => {
    const [v1] = apis(template).find(([, api]) => !String(api.Properties.Name).endsWith('-dashboard'))!;
    const [dashboard] = apis(template).find(([, api]) => String(api.Properties.Name).endsWith('-dashboard'))!;
    expect(throttleOf(stageOf(template, v1))).toEqual(stageThrottleOf(capacity));
    expect(throttleOf(stageOf(template, dashboard))).toEqual(capacity.dashboard);
    // The /v1 API's tier plans; the dashboard's one plan holds its distribution's key and has no throttle of its own.
    const plans = Object.values(resources(template, 'AWS::ApiGateway::UsagePlan'))
      .filter((plan) => plan.Properties.ApiStages.some((s: { ApiId: { Ref: string } }) => s.ApiId.Ref === v1))
      .map((plan) => plan.Properties.Throttle);
    expect(plans).toEqual(tiersOf(capacity).map((tier) => ({ RateLimit: tier.rateLimit, BurstLimit: tier.burstLimit })));
    // Far above the standard tier: a company at 10× its limit is refused by its own, never the stage's.
    expect(stageThrottleOf(capacity).rateLimit).toBeGreaterThanOrEqual(10 * firstTierOf(capacity).rateLimit);
  });

  it("keeps each tier above the one before, and the highest at most half the stage's throttle, so one raised company at its limit leaves the other half", () => {
    const highest = highestTierOf(capacity);
    expect(highest.tier).toBe('scale');
    expect(2 * highest.rateLimit).toBeLessThanOrEqual(stageThrottleOf(capacity).rateLimit);
    expect(2 * highest.burstLimit).toBeLessThanOrEqual(stageThrottleOf(capacity).burstLimit);
    expect(tierProblemsOf(capacity)).toEqual([]);
  });

  it("lets one address send as many companies' limits as the model says, and no more (WAF), and never stops one company below its tier", () => {
    const limits = Object.values(resources(template, 'AWS::WAFv2::WebACL')).flatMap((acl) => acl.Properties.Rules.map((rule: any) => rule.Statement.RateBasedStatement?.Limit).filter(Boolean));
    const expected = wafRatePer5MinutesOf(capacity);
    expect(limits).toEqual(expected === null ? [] : [expected]);
    for (const limit of limits) expect(limit).toBeGreaterThanOrEqual(highestTierOf(capacity).rateLimit * 300);
  });

  it("gives the webhook sender the model's ceiling and reserves concurrency for the signing jobs, one execution per open network, and the dashboard's downloads alone", () => {
    const senderId = Object.entries(resources(template, 'AWS::Lambda::Function')).find(([, fn]) => named(fn.Properties.FunctionName, JOBS.webhookSender.handler))![0];
    const mappings = Object.values(resources(template, 'AWS::Lambda::EventSourceMapping')).filter((mapping) => mapping.Properties.FunctionName.Ref === senderId);
    expect(mappings.map((mapping) => mapping.Properties.ScalingConfig)).toEqual([{ MaximumConcurrency: capacity.webhookSenderConcurrency }]);
    const reserved = functionsByName()
      .filter((fn) => fn.ReservedConcurrentExecutions !== undefined)
      .map((fn) => [String(fn.FunctionName).split('-').at(-1), fn.ReservedConcurrentExecutions]);
    const perNetwork = signingJobConcurrencyOf(STAGES[stage]);
    expect(Object.fromEntries(reserved)).toEqual({
      [lambdaName(JOBS.withdrawalSender.handler)]: perNetwork,
      [lambdaName(JOBS.depositSweeper.handler)]: perNetwork,
      ...Object.fromEntries(DASHBOARD_DOWNLOADS.map((route) => [lambdaName(route.handler), DASHBOARD_DOWNLOAD_CONCURRENCY])),
    });
  });

  it('bounds every function that may run longer than 30 s where the model counts it: a request never starts one without its own reserved ceiling', () => {
    // What starts each function, from the template: API Gateway (a request: the throttles bound how
    // often, not for how long), a schedule, a stream, a queue with a ceiling, or a deploy.
    const startedBy = new Map<string, Set<string>>();
    const starts = (target: any, how: string) => {
      const id: string = target?.['Fn::GetAtt']?.[0] ?? target?.Ref;
      if (!startedBy.has(id)) startedBy.set(id, new Set());
      startedBy.get(id)!.add(how);
    };
    for (const permission of Object.values(resources(template, 'AWS::Lambda::Permission'))) {
      const principal = permission.Properties.Principal;
      starts(permission.Properties.FunctionName, principal === 'apigateway.amazonaws.com' ? 'request' : principal === 'events.amazonaws.com' ? 'schedule' : `invoked by ${principal}`);
    }
    for (const rule of Object.values(resources(template, 'AWS::Events::Rule'))) for (const target of rule.Properties.Targets ?? []) starts(target.Arn, 'schedule');
    for (const mapping of Object.values(resources(template, 'AWS::Lambda::EventSourceMapping'))) starts(mapping.Properties.FunctionName, mapping.Properties.ScalingConfig ? 'queue' : 'stream');
    for (const resource of Object.values(template.toJSON().Resources as Record<string, Resource>)) if (resource.Properties?.ServiceToken) starts(resource.Properties.ServiceToken, 'deploy');
    // Counted by the model: what is reserved, the queue's ceiling (webhookSenderConcurrency, above),
    // a run per schedule or stream (`otherRuns`, below); a deploy's function runs only during it.
    const countedUnreserved = new Set(['schedule', 'stream', 'queue', 'deploy']);

    const long = Object.entries(resources(template, 'AWS::Lambda::Function')).filter(([, fn]) => (fn.Properties.Timeout ?? 3) > 30);
    const unbounded = long
      .filter(([id, fn]) => fn.Properties.ReservedConcurrentExecutions === undefined && ![...(startedBy.get(id) ?? [])].every((how) => countedUnreserved.has(how)))
      .map(([id, fn]) => `${fn.Properties.FunctionName ?? id} (${fn.Properties.Timeout} s, started by ${[...(startedBy.get(id) ?? [])].join(', ')})`);
    expect(unbounded).toEqual([]);
    // The downloads are such functions, started by requests: each has its own ceiling, counted in `reserved`.
    const requested = long.filter(([id]) => startedBy.get(id)?.has('request')).map(([, fn]) => [String(fn.Properties.FunctionName).split('-').at(-1), fn.Properties.ReservedConcurrentExecutions]);
    expect(Object.fromEntries(requested)).toEqual(Object.fromEntries(DASHBOARD_DOWNLOADS.map((route) => [lambdaName(route.handler), DASHBOARD_DOWNLOAD_CONCURRENCY])));
  });

  it("fits the account's quotas: Lambda's concurrency, and API Gateway's rate for the account with both stages in it", () => {
    const functions = Object.entries(resources(template, 'AWS::Lambda::Function'));
    const reserved = functions.reduce((sum, [, fn]) => sum + (fn.Properties.ReservedConcurrentExecutions ?? 0), 0);
    // Every other function runs once per schedule rule or stream mapping that starts it.
    const rules = Object.values(resources(template, 'AWS::Events::Rule')).flatMap((rule) => rule.Properties.Targets ?? []);
    const streams = Object.values(resources(template, 'AWS::Lambda::EventSourceMapping')).filter((mapping) => mapping.Properties.ScalingConfig === undefined);
    const otherRuns = rules.length + streams.length;
    const { needed, available } = concurrencyNeeded(capacity, reserved, otherRuns);
    expect(needed).toBeLessThanOrEqual(available);
    const accountRate = Object.values(STAGES)
      .filter((other) => other.stage !== 'local')
      .reduce((sum, other) => sum + stageThrottleOf(other.capacity).rateLimit + other.capacity.dashboard.rateLimit, 0);
    expect(accountRate).toBeLessThanOrEqual(ACCOUNT_API_REQUESTS_PER_SECOND);
  });
});

describe("the capacity model's tier rule", () => {
  const sandbox = STAGES.sandbox.capacity;

  it('names a highest tier above half the stage throttle, and a tier not above the one before it', () => {
    const tooHigh = { ...sandbox, tiers: { ...sandbox.tiers, scale: { rateLimit: 150, burstLimit: 300 } } };
    const notAbove = { ...sandbox, tiers: { ...sandbox.tiers, growth: { rateLimit: 10, burstLimit: 20 } } };

    expect(tierProblemsOf(tooHigh)).toEqual(["tier scale (150/s, burst 300) is more than half the stage's throttle (200/s, burst 400)"]);
    expect(tierProblemsOf(notAbove)).toEqual(['tier growth is not above standard']);
  });
});
