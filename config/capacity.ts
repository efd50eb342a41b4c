import type { RateLimit } from '#functions/api-keys/rate-limits';

/**
 * The capacity model (docs/capacity.md): the load each stage is sized for, and the limits the stack
 * takes from it rather than from figures written by hand. Data and arithmetic only, like
 * config/stages.ts, which reads it; test/infra/capacity.test.ts fails when the synthesized stack
 * departs from it.
 *
 * The rule it keeps: one company's traffic is refused by its own plan (its usage plan in AWS, its
 * bucket locally) before it reaches anything companies share, and everything shared (the stage's
 * throttle, the per-address WAF rule, Lambda's concurrency) is sized for many companies at their
 * plan at once, so no company at its limit, or past it, leaves another short.
 */

/** What a stage is sized for. */
export interface StageCapacity {
  /** Each company's own limit: its plan (a usage plan in AWS, a token bucket locally). */
  plan: RateLimit;
  /** Companies at their plan's steady rate at the same moment that the stage serves in full: its
   * throttle is their sum, so it refuses nothing while fewer are that busy. */
  companiesAtPlanRate: number;
  /** Companies whose servers may share one public address (one NAT, one cloud egress): the
   * per-address WAF rule lets that many send at their plan's rate. Null: no WAF on the stage. */
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

/** The stage's throttle: every company at its plan at once, `companiesAtPlanRate` of them; the
 * burst is twice the rate, as each plan's is. */
export function stageThrottleOf(capacity: StageCapacity): RateLimit {
  const rateLimit = capacity.plan.rateLimit * capacity.companiesAtPlanRate;
  return { rateLimit, burstLimit: Math.max(2 * rateLimit, capacity.plan.burstLimit) };
}

/** The WAF rule's requests from one address in any 5 minutes: `companiesPerAddress` companies at
 * their plan's steady rate. */
export function wafRatePer5MinutesOf(capacity: StageCapacity): number | null {
  return capacity.companiesPerAddress === null ? null : capacity.companiesPerAddress * capacity.plan.rateLimit * 300;
}

/** Lambda concurrency the /v1 API holds when the stage's throttle admits its steady rate: the
 * authorizer's calls are cached per credentials, so about one function a request. The dashboard's
 * API likewise at its own throttle. */
export function apiConcurrencyOf(capacity: StageCapacity): number {
  return Math.ceil((stageThrottleOf(capacity).rateLimit + capacity.dashboard.rateLimit) * API_SECONDS_PER_REQUEST);
}

/**
 * The Lambda concurrency the stage can hold at once, by the model: the API at its throttles, the
 * webhook sender at its ceiling, what is reserved, and each other function once per schedule or
 * stream that starts it (`otherRuns`, counted from the stack). It must fit in the account's quota
 * less what Lambda keeps unreserved.
 */
export function concurrencyNeeded(capacity: StageCapacity, reserved: number, otherRuns: number): { needed: number; available: number } {
  return { needed: apiConcurrencyOf(capacity) + capacity.webhookSenderConcurrency + reserved + otherRuns, available: capacity.lambdaConcurrencyQuota - LAMBDA_UNRESERVED_MINIMUM };
}
