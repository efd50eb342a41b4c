import { RATE_LIMIT_TIERS, type RateLimit, type RateLimitTier, type RateLimitTiers } from '#functions/api-keys/rate-limits';

/**
 * The capacity model (docs/capacity.md): the load each stage is sized for, and the limits the stack
 * takes from it rather than from figures written by hand. Data and arithmetic only, like
 * config/stages.ts, which reads it; test/infra/capacity.test.ts fails when the synthesized stack
 * departs from it.
 *
 * The rule it keeps: one company's traffic is refused by its own plan (its tier's usage plan in AWS,
 * its bucket locally) before it reaches anything companies share, and everything shared (each
 * method's throttle, the per-address WAF rule, Lambda's concurrency) is sized for many companies at
 * the standard tier at once, so no company at its limit, or past it, leaves another short. A company
 * raised to a higher tier is one of a few, by hand (`npm run company:limits`): the highest tier
 * stays at most half a method's throttle, so one such company at its limit on one method leaves the
 * other half of it.
 *
 * API Gateway keeps no bucket for a stage as a whole: the stage's throttle (MethodSettings `/*` `*`)
 * gives every method a bucket of its own at that rate, and what a stage admits in all is bounded
 * only by the companies' plans (so by how many companies there are), its methods times that rate,
 * and the account's API Gateway rate for the region, every API in it together.
 */

/** What a stage is sized for. */
export interface StageCapacity {
  /** Each company's own limit by its tier (a usage plan per tier in AWS, a token bucket locally),
   * lowest first: the first is every new company's. */
  tiers: RateLimitTiers;
  /** Companies at the first tier's steady rate at the same moment that the stage serves in full,
   * even were they all calling one method: each method's throttle is their sum, so no method refuses
   * anything while fewer are that busy. Also the /v1 load, in all, the Lambda model is sized for
   * (`plannedRateOf`). */
  companiesAtPlanRate: number;
  /** Companies whose servers may share one public address (one NAT, one cloud egress): the
   * per-address WAF rule lets that many send at the first tier's rate (and one company at the
   * highest tier's). Null: no per-address rule on the stage. */
  companiesPerAddress: number | null;
  /** The dashboard's own API (people in browsers, its own stage): its throttle, which API Gateway
   * likewise applies to each of its methods on its own. */
  dashboard: RateLimit;
  /** Webhook deliveries in flight at once (the sender's queue's maximum concurrency): the sender
   * is the one job whose concurrency grows with load, its queue's backlog, so it has a ceiling and
   * the API keeps the rest of the account's concurrency. Each delivery waits on an integrator's
   * endpoint (up to its timeout), not on our CPU. At least 2 (SQS's minimum). */
  webhookSenderConcurrency: number;
  /** The AWS account's Lambda concurrency quota in the stage's region (1,000 by default). The model
   * takes each stage to be in an account of its own: stages in one account share this and API
   * Gateway's rate (docs/capacity.md). */
  lambdaConcurrencyQuota: number;
}

/** API Gateway's REST APIs per account and region, every API and stage in it together (the default
 * quota; its burst is 5,000). Past it every API in the account is answered 429, whoever sent what. */
export const ACCOUNT_API_REQUESTS_PER_SECOND = 10_000;

/**
 * Seconds of Lambda time one /v1 request holds a function in AWS, at p99: the handler's own CPU (the
 * bench's server CPU a request: about 2 ms for a balance read, 11 ms for a deposit, locally) and
 * DynamoDB's single-digit milliseconds a call, with a margin for cold starts and the authorizer's
 * uncached calls. docs/capacity.md shows the sum.
 */
export const API_SECONDS_PER_REQUEST = 0.1;

/** API_SECONDS_PER_REQUEST in whole milliseconds, so the model's products are exact (2,050 × 0.1 is
 * 205.00000000000003 in floats). */
const REQUEST_MS = Math.round(API_SECONDS_PER_REQUEST * 1000);

/** Lambda keeps this much of an account's concurrency unreserved, whatever is reserved. */
export const LAMBDA_UNRESERVED_MINIMUM = 100;

/**
 * Executions reserved for each dashboard download's function (`Export CSV`, `Download statement`:
 * functions/routes.ts DASHBOARD_DOWNLOADS), which are also its ceiling. A download holds its
 * function while the file streams, seconds to minutes (DOWNLOAD_TIMEOUT_SECONDS there), not
 * API_SECONDS_PER_REQUEST, so the dashboard's throttle does not bound it: one signed-in person
 * scripting downloads at 50 a second would hold 50 × their length at once, up to the account's
 * whole concurrency, which every company's /v1 functions share unreserved. Ten at once is a stage's
 * people downloading: a year's statement of 50,000 entries streams in about 8 s (BENCHMARKS.md), so
 * ten serve some 75 of the largest files a minute, and a month's export many more. Each function
 * sets its ten aside of the account's 900 reservable executions; past them a download is refused,
 * and nothing else is (docs/capacity.md).
 */
export const DASHBOARD_DOWNLOAD_CONCURRENCY = 10;

/** A tier and its figures. */
export type TierLimit = RateLimit & { tier: RateLimitTier };

/** The stage's tiers, lowest first: the first is every new company's. */
export function tiersOf(capacity: StageCapacity): TierLimit[] {
  return RATE_LIMIT_TIERS.map((tier) => ({ tier, ...capacity.tiers[tier] }));
}

/** The tier every new company is at, and the one the stage's shared limits are sized by. */
export function firstTierOf(capacity: StageCapacity): TierLimit {
  return tiersOf(capacity)[0]!;
}

/** The stage's highest tier: the most one company may send. */
export function highestTierOf(capacity: StageCapacity): TierLimit {
  return tiersOf(capacity).at(-1)!;
}

/** The stage's throttle, which API Gateway applies to each method on its own (a bucket per method,
 * none for the stage): every company at the first tier at once, `companiesAtPlanRate` of them, so
 * that many on one method pass; the burst is twice the rate, as each tier's is. */
export function stageThrottleOf(capacity: StageCapacity): RateLimit {
  const rateLimit = plannedRateOf(capacity);
  return { rateLimit, burstLimit: Math.max(2 * rateLimit, firstTierOf(capacity).burstLimit) };
}

/** The /v1 load, in all, the stage is sized for: `companiesAtPlanRate` companies at the first tier's
 * steady rate. Nothing in AWS holds the sum to it (a method's bucket holds one method); it is what the
 * Lambda model must carry beside one company at the highest tier. */
export function plannedRateOf(capacity: StageCapacity): number {
  return firstTierOf(capacity).rateLimit * capacity.companiesAtPlanRate;
}

/**
 * What is wrong with the stage's tiers, or nothing: each is above the one before it, and the
 * highest is at most half the stage's throttle, so a company raised to it and at its limit, all of
 * it on one method, leaves that method's other half to everyone else. config/stages.ts refuses a
 * model that breaks it.
 */
export function tierProblemsOf(capacity: StageCapacity): string[] {
  const tiers = tiersOf(capacity);
  const problems = tiers.slice(1).flatMap((tier, i) => {
    const below = tiers[i]!;
    return tier.rateLimit > below.rateLimit && tier.burstLimit > below.burstLimit ? [] : [`tier ${tier.tier} is not above ${below.tier}`];
  });
  const highest = highestTierOf(capacity);
  const stage = stageThrottleOf(capacity);
  if (2 * highest.rateLimit > stage.rateLimit || 2 * highest.burstLimit > stage.burstLimit) {
    problems.push(`tier ${highest.tier} (${highest.rateLimit}/s, burst ${highest.burstLimit}) is more than half a method's throttle (${stage.rateLimit}/s, burst ${stage.burstLimit})`);
  }
  return problems;
}

/** The WAF rule's requests from one address in any 5 minutes: `companiesPerAddress` companies at
 * the first tier's steady rate, or one company at the highest tier's if that is more, so no
 * company's own servers are stopped below their tier. */
export function wafRatePer5MinutesOf(capacity: StageCapacity): number | null {
  if (capacity.companiesPerAddress === null) return null;
  return Math.max(capacity.companiesPerAddress * firstTierOf(capacity).rateLimit, highestTierOf(capacity).rateLimit) * 300;
}

/**
 * The stage's API methods, counted from its template (test/infra/capacity.test.ts): API Gateway gives
 * each its own bucket at its API's stage throttle, so these, times the throttles, are what the APIs
 * can admit.
 */
export interface ApiMethods {
  /** The /v1 API's methods. */
  v1: number;
  /** The dashboard API's methods, every one. */
  dashboard: number;
  /** Those of them whose function holds unreserved concurrency: all but the downloads, which
   * reserve their own (DASHBOARD_DOWNLOAD_CONCURRENCY, counted in `reserved`). */
  dashboardUnreserved: number;
  /** Those behind the session authorizer, whose answer is not cached (functions/routes.ts
   * SESSION_AUTHORIZER): each of their requests runs it too. */
  dashboardSession: number;
}

/** The most the dashboard's API admits a second: each of its methods at its throttle. One signed-in
 * person scripting it reaches it; nothing per person or per company is in front of it. */
export function dashboardRequestsAtCeilingOf(capacity: StageCapacity, methods: ApiMethods): number {
  return Math.min(methods.dashboard * capacity.dashboard.rateLimit, ACCOUNT_API_REQUESTS_PER_SECOND);
}

/** Lambda executions a second the dashboard's API starts at that ceiling: a function per request on
 * each method that reserves none, and the session authorizer per request behind it. */
function dashboardExecutionsAtCeilingOf(capacity: StageCapacity, methods: ApiMethods): number {
  return (methods.dashboardUnreserved + methods.dashboardSession) * capacity.dashboard.rateLimit;
}

/** The most the /v1 API admits a second, as AWS throttles it: each method at the stage's throttle,
 * and the account's rate less what the dashboard's API takes of it at its ceiling. */
export function v1AdmittedRateOf(capacity: StageCapacity, methods: ApiMethods): number {
  return Math.min(methods.v1 * stageThrottleOf(capacity).rateLimit, ACCOUNT_API_REQUESTS_PER_SECOND - dashboardRequestsAtCeilingOf(capacity, methods));
}

/** Lambda concurrency the stage's APIs hold with /v1 at `v1RequestsPerSecond` and the dashboard's at
 * its ceiling: the /v1 authorizer's answers are cached per credentials, so about one function a /v1
 * request; the dashboard's downloads, which hold a function far longer than a request's 0.1 s, are
 * counted by what they reserve (DASHBOARD_DOWNLOAD_CONCURRENCY). */
export function apiConcurrencyOf(capacity: StageCapacity, methods: ApiMethods, v1RequestsPerSecond: number): number {
  return Math.ceil(((v1RequestsPerSecond + dashboardExecutionsAtCeilingOf(capacity, methods)) * REQUEST_MS) / 1000);
}

/**
 * The Lambda concurrency the stage holds at once, by the model, with /v1 at `v1RequestsPerSecond`:
 * the APIs (apiConcurrencyOf), the webhook sender at its ceiling, what is reserved (the signing
 * jobs, one execution per open network each, and each dashboard download's
 * DASHBOARD_DOWNLOAD_CONCURRENCY: `reserved`, summed from the stack), and each other function once
 * per schedule or stream that starts it (`otherRuns`, counted from the stack). It must fit in the
 * account's quota less what Lambda keeps unreserved.
 */
export function concurrencyNeeded(
  capacity: StageCapacity,
  methods: ApiMethods,
  reserved: number,
  otherRuns: number,
  v1RequestsPerSecond: number,
): { needed: number; available: number } {
  return {
    needed: apiConcurrencyOf(capacity, methods, v1RequestsPerSecond) + capacity.webhookSenderConcurrency + reserved + otherRuns,
    available: capacity.lambdaConcurrencyQuota - LAMBDA_UNRESERVED_MINIMUM,
  };
}

/**
 * The /v1 rate at which the account's Lambda concurrency gives: what is left of it after the rest of
 * the model, at API_SECONDS_PER_REQUEST a request. Past it Lambda refuses every function that
 * reserves nothing (the API's, the webhook sender, the unreserved schedules), whoever's load it was.
 * `dashboardQuiet`: its people's few requests, rather than the dashboard's API at its ceiling.
 */
export function v1RateWithinConcurrencyOf(
  capacity: StageCapacity,
  methods: ApiMethods,
  reserved: number,
  otherRuns: number,
): { besideDashboardAtCeiling: number; dashboardQuiet: number } {
  const { needed, available } = concurrencyNeeded(capacity, methods, reserved, otherRuns, 0);
  const dashboard = apiConcurrencyOf(capacity, methods, 0);
  const left = (executions: number) => Math.max(0, Math.floor((executions * 1000) / REQUEST_MS));
  return { besideDashboardAtCeiling: left(available - needed), dashboardQuiet: left(available - needed + dashboard) };
}

/** The account's Lambda concurrency quota under which whatever the stage's throttles admit fits: the
 * model at v1AdmittedRateOf, and what Lambda keeps unreserved. */
export function lambdaQuotaForAdmittedOf(capacity: StageCapacity, methods: ApiMethods, reserved: number, otherRuns: number): number {
  return concurrencyNeeded(capacity, methods, reserved, otherRuns, v1AdmittedRateOf(capacity, methods)).needed + LAMBDA_UNRESERVED_MINIMUM;
}
