import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DOWNLOADS, JOBS, lambdaName, ROUTES } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { signingJobConcurrencyOf } from '../../lib/networks/registry.ts';
import { STAGES } from '../../config/stages.ts';
import {
  ACCOUNT_API_REQUESTS_PER_SECOND,
  concurrencyNeeded,
  DASHBOARD_DOWNLOAD_CONCURRENCY,
  dashboardRequestsAtCeilingOf,
  firstTierOf,
  highestTierOf,
  lambdaQuotaForAdmittedOf,
  plannedRateOf,
  stageThrottleOf,
  tierProblemsOf,
  tiersOf,
  v1AdmittedRateOf,
  v1RateWithinConcurrencyOf,
  wafRatePer5MinutesOf,
  type ApiMethods,
} from '../../config/capacity.ts';

/**
 * The stack follows the capacity model (config/capacity.ts, docs/capacity.md), issue #45: every
 * throttle, the WAF rule, the webhook sender's ceiling and every function's reserved concurrency are
 * what the model says, and what the model says fits the account's quotas, counted as AWS applies
 * them (a throttle bucket per method, the methods counted from the template). A figure set by hand
 * in lib/ that departs from it fails here.
 */
type Resource = { Properties: Record<string, any> };
const resources = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;
const apis = (template: Template) => Object.entries(resources(template, 'AWS::ApiGateway::RestApi'));
const stageOf = (template: Template, apiId: string) => Object.values(resources(template, 'AWS::ApiGateway::Stage')).find((stage) => stage.Properties.RestApiId.Ref === apiId)!.Properties;
/** A function's name is the stack's and the handler's (lib/api-function.ts). */
const named = (functionName: unknown, handler: string) => String(functionName).endsWith(`-${lambdaName(handler)}`);
/** The stage's throttle: API Gateway applies a MethodSettings entry to each method it matches, `/*`
 * `*` to every one, each in a bucket of its own. The only entry, so no method has other figures. */
const throttleOf = (stage: Record<string, any>) => {
  expect(stage.MethodSettings.map((setting: any) => [setting.ResourcePath, setting.HttpMethod])).toEqual([['/*', '*']]);
  const [all] = stage.MethodSettings;
  return { rateLimit: all.ThrottlingRateLimit, burstLimit: all.ThrottlingBurstLimit };
};
const functionIn = (value: unknown): string | undefined => JSON.stringify(value).match(/"Fn::GetAtt":\["([^"]+)","Arn"\]/)?.[1];
/** Figures as docs/capacity.md writes them: 8,170. */
const written = (figure: number) => figure.toLocaleString('en-US');
const notDone = () => readFileSync(new URL('../../docs/capacity.md', import.meta.url), 'utf8').split('## Not done')[1] ?? '';

describe.each(['sandbox', 'production'] as const)('Cambio-%s follows its capacity model', (stage) => {
  const { capacity } = STAGES[stage];
  let template: Template;
  const functionsByName = () => Object.values(resources(template, 'AWS::Lambda::Function')).map((fn) => fn.Properties);
  const v1Api = () => apis(template).find(([, api]) => !String(api.Properties.Name).endsWith('-dashboard'))![0];
  const dashboardApi = () => apis(template).find(([, api]) => String(api.Properties.Name).endsWith('-dashboard'))![0];
  const methodsOf = (apiId: string) => Object.values(resources(template, 'AWS::ApiGateway::Method')).filter((method) => method.Properties.RestApiId.Ref === apiId);
  /** What each API's methods are, counted from the template: API Gateway throttles each on its own. */
  const apiMethods = (): ApiMethods => {
    const functions = resources(template, 'AWS::Lambda::Function');
    const dashboard = methodsOf(dashboardApi());
    const sessionAuthorizer = Object.entries(resources(template, 'AWS::ApiGateway::Authorizer')).find(([, authorizer]) => authorizer.Properties.RestApiId.Ref === dashboardApi())![0];
    return {
      v1: methodsOf(v1Api()).length,
      dashboard: dashboard.length,
      dashboardUnreserved: dashboard.filter((method) => functions[functionIn(method.Properties.Integration.Uri)!]!.Properties.ReservedConcurrentExecutions === undefined).length,
      dashboardSession: dashboard.filter((method) => method.Properties.AuthorizerId?.Ref === sessionAuthorizer).length,
    };
  };
  /** What the stack reserves, and the runs of every other function (once per schedule rule or stream mapping that starts it). */
  const reservedAndOtherRuns = () => {
    const reserved = Object.values(resources(template, 'AWS::Lambda::Function')).reduce((sum, fn) => sum + (fn.Properties.ReservedConcurrentExecutions ?? 0), 0);
    const rules = Object.values(resources(template, 'AWS::Events::Rule')).flatMap((rule) => rule.Properties.Targets ?? []);
    const streams = Object.values(resources(template, 'AWS::Lambda::EventSourceMapping')).filter((mapping) => mapping.Properties.ScalingConfig === undefined);
    return { reserved, otherRuns: rules.length + streams.length };
  };

  beforeAll(() => {
    template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  }, 60_000);

  it('throttles each /v1 method at every company at the standard tier at once (a bucket per method, none for the stage), each company at its tier across all methods, and the dashboard at its own per method', () => {
    const [v1, dashboard] = [v1Api(), dashboardApi()];
    expect(throttleOf(stageOf(template, v1))).toEqual(stageThrottleOf(capacity));
    expect(throttleOf(stageOf(template, dashboard))).toEqual(capacity.dashboard);
    // The /v1 API's tier plans; the dashboard's one plan holds its distribution's key and has no throttle of its own.
    const plans = Object.values(resources(template, 'AWS::ApiGateway::UsagePlan')).filter((plan) => plan.Properties.ApiStages.some((s: { ApiId: { Ref: string } }) => s.ApiId.Ref === v1));
    expect(plans.map((plan) => plan.Properties.Throttle)).toEqual(tiersOf(capacity).map((tier) => ({ RateLimit: tier.rateLimit, BurstLimit: tier.burstLimit })));
    // No per-method figures in a plan: a company's key has one bucket for all its methods, its tier.
    expect(plans.flatMap((plan) => plan.Properties.ApiStages.flatMap((s: { Throttle?: object }) => Object.keys(s.Throttle ?? {})))).toEqual([]);
    // Far above the standard tier: a company at 10× its limit is refused by its own, never a method's.
    expect(stageThrottleOf(capacity).rateLimit).toBeGreaterThanOrEqual(10 * firstTierOf(capacity).rateLimit);
    // So what /v1 admits in all is its methods' buckets together, bounded by the account's rate, not the stage's figure.
    const methods = apiMethods();
    expect(methods.v1).toBe(ROUTES.length);
    expect(v1AdmittedRateOf(capacity, methods)).toBe(Math.min(methods.v1 * stageThrottleOf(capacity).rateLimit, ACCOUNT_API_REQUESTS_PER_SECOND - methods.dashboard * capacity.dashboard.rateLimit));
    expect(v1AdmittedRateOf(capacity, methods)).toBeGreaterThan(stageThrottleOf(capacity).rateLimit);
  });

  it("keeps each tier above the one before, and the highest at most half a method's throttle, so one raised company at its limit on one method leaves the other half", () => {
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

  it("holds one company at the highest tier, beside the planned load of everyone else and a person scripting the dashboard at its ceiling, within the account's Lambda concurrency and API Gateway rate: one tenant never hurts another", () => {
    const { reserved, otherRuns } = reservedAndOtherRuns();
    const v1 = plannedRateOf(capacity) + highestTierOf(capacity).rateLimit;
    const { needed, available } = concurrencyNeeded(capacity, apiMethods(), reserved, otherRuns, v1);
    expect(needed).toBeLessThanOrEqual(available);
    expect(v1 + dashboardRequestsAtCeilingOf(capacity, apiMethods())).toBeLessThanOrEqual(ACCOUNT_API_REQUESTS_PER_SECOND);
  });

  it("holds whatever the throttles admit within the account's Lambda concurrency, or docs/capacity.md's Not done names the /v1 rate at which it gives and the quota that would hold it", () => {
    const methods = apiMethods();
    const { reserved, otherRuns } = reservedAndOtherRuns();
    const admitted = v1AdmittedRateOf(capacity, methods);
    const { needed, available } = concurrencyNeeded(capacity, methods, reserved, otherRuns, admitted);
    const gives = v1RateWithinConcurrencyOf(capacity, methods, reserved, otherRuns);
    // Consistent: the rate Lambda holds beside the dashboard at its ceiling is below the admitted rate exactly when the sum does not fit.
    expect(gives.besideDashboardAtCeiling < admitted).toBe(needed > available);
    // The sandbox's methods together fit; production's do not, at the default quota (docs/capacity.md, Not done).
    expect({ stage, fits: needed <= available }).toEqual({ stage, fits: stage === 'sandbox' });
    if (needed > available) {
      const text = notDone();
      for (const figure of [gives.besideDashboardAtCeiling, gives.dashboardQuiet, lambdaQuotaForAdmittedOf(capacity, methods, reserved, otherRuns)]) expect(text).toContain(written(figure));
      // The load the stage is planned for is far inside it.
      expect(gives.besideDashboardAtCeiling).toBeGreaterThan(plannedRateOf(capacity) + highestTierOf(capacity).rateLimit);
    }
  });
});

describe("the capacity model's tier rule", () => {
  const sandbox = STAGES.sandbox.capacity;

  it('names a highest tier above half the stage throttle, and a tier not above the one before it', () => {
    const tooHigh = { ...sandbox, tiers: { ...sandbox.tiers, scale: { rateLimit: 150, burstLimit: 300 } } };
    const notAbove = { ...sandbox, tiers: { ...sandbox.tiers, growth: { rateLimit: 10, burstLimit: 20 } } };

    expect(tierProblemsOf(tooHigh)).toEqual(["tier scale (150/s, burst 300) is more than half a method's throttle (200/s, burst 400)"]);
    expect(tierProblemsOf(notAbove)).toEqual(['tier growth is not above standard']);
  });
});
