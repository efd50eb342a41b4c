import { RATE_LIMIT_TIERS, type RateLimit, type RateLimitTier, type RateLimitTiers } from '#functions/api-keys/rate-limits';

/**
 * The capacity model (docs/capacity.md): the load each stage is sized for, and the limits the stack
 * takes from it rather than from figures written by hand. Data and arithmetic only, like
 * config/stages.ts, which reads it; test/infra/capacity.test.ts fails when the synthesized stack
 * departs from it.
 *
 * The rule it keeps: one company's traffic is refused by its own plan (its tier's usage plan in AWS,
 * its bucket locally) before it reaches anything companies share, and everything shared (the stage's
 * throttle, the per-address WAF rule, Lambda's concurrency) is sized for many companies at the
 * standard tier at once, so no company at its limit, or past it, leaves another short. A company
 * raised to a higher tier is one of a few, by hand (`npm run company:limits`): the highest tier
 * stays at most half the stage's throttle, so one such company at its limit leaves the other half.
 */

/** What a stage is sized for. */
export interface StageCapacity {
  /** Each company's own limit by its tier (a usage plan per tier in AWS, a token bucket locally),
   * lowest first: the first is every new company's. */
  tiers: RateLimitTiers;
  /** Companies at the first tier's steady rate at the same moment that the stage serves in full:
   * its throttle is their sum, so it refuses nothing while fewer are that busy. */
  companiesAtPlanRate: number;
  /** Companies whose servers may share one public address (one NAT, one cloud egress): the
   * per-address WAF rule lets that many send at the first tier's rate (and one company at the
   * highest tier's). Null: no per-address rule on the stage. */
  companiesPerAddress: number | null;
  /** The dashboard's own API (people in browsers, its own stage): its throttle. */
  dashboard: RateLimit;
  /** Webhook deliveries in flight at once (the sender's queue's maximum concurrency): the sender
   * is the one job whose concurrency grows with load, its queue's backlog, so it has a ceiling and
   * the API keeps the rest of the account's concurrency. Each delivery waits on an integrator's
   * endpoint (up to its timeout), not on our CPU. At least 2 (SQS's minimum). */
  webhookSenderConcurrency: number;
  /** The AWS account's Lambda concurrency quota in the stage's region (1,000 by default). */
  lambdaConcurrencyQuota: number;
}

/** API Gateway's REST APIs per account and region, every stage in it together (the default quota). */
export const ACCOUNT_API_REQUESTS_PER_SECOND = 10_000;

/**
 * Seconds of Lambda time one /v1 request holds a function in AWS, at p99: the handler's own CPU (the
 * bench's server CPU a request: about 2 ms for a balance read, 11 ms for a deposit, locally) and
 * DynamoDB's single-digit milliseconds a call, with a margin for cold starts and the authorizer's
 * uncached calls. docs/capacity.md shows the sum.
 */
export const API_SECONDS_PER_REQUEST = 0.1;

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

/** The stage's throttle: every company at the first tier at once, `companiesAtPlanRate` of them;
 * the burst is twice the rate, as each tier's is. */
export function stageThrottleOf(capacity: StageCapacity): RateLimit {
  const first = firstTierOf(capacity);
  const rateLimit = first.rateLimit * capacity.companiesAtPlanRate;
  return { rateLimit, burstLimit: Math.max(2 * rateLimit, first.burstLimit) };
}

/**
 * What is wrong with the stage's tiers, or nothing: each is above the one before it, and the
 * highest is at most half the stage's throttle, so a company raised to it and at its limit leaves
 * the stage's other half to everyone else. config/stages.ts refuses a model that breaks it.
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
    problems.push(`tier ${highest.tier} (${highest.rateLimit}/s, burst ${highest.burstLimit}) is more than half the stage's throttle (${stage.rateLimit}/s, burst ${stage.burstLimit})`);
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

/** Lambda concurrency the /v1 API holds when the stage's throttle admits its steady rate: the
 * authorizer's calls are cached per credentials, so about one function a request. The dashboard's
 * API likewise at its own throttle; its downloads, which hold a function far longer than a
 * request's 0.1 s, are counted by what they reserve (DASHBOARD_DOWNLOAD_CONCURRENCY). */
export function apiConcurrencyOf(capacity: StageCapacity): number {
  return Math.ceil((stageThrottleOf(capacity).rateLimit + capacity.dashboard.rateLimit) * API_SECONDS_PER_REQUEST);
}

/**
 * The Lambda concurrency the stage can hold at once, by the model: the API at its throttles, the
 * webhook sender at its ceiling, what is reserved (the signing jobs, one execution per open network
 * each, and each dashboard download's DASHBOARD_DOWNLOAD_CONCURRENCY: `reserved`, summed from the
 * stack), and each other function once per schedule or stream that starts it (`otherRuns`, counted
 * from the stack). It must fit in the account's quota less what Lambda keeps unreserved.
 */
export function concurrencyNeeded(capacity: StageCapacity, reserved: number, otherRuns: number): { needed: number; available: number } {
  return { needed: apiConcurrencyOf(capacity) + capacity.webhookSenderConcurrency + reserved + otherRuns, available: capacity.lambdaConcurrencyQuota - LAMBDA_UNRESERVED_MINIMUM };
}
