/**
 * Per-company rate limits (README, Rate limits). In AWS, API Gateway enforces
 * them: the authorizer names the company's API Gateway key as the request's usage identifier, and
 * the usage plan of the company's tier throttles each key on its own. Locally, local/api-server.ts
 * keeps one token bucket per company with its tier's figures. One company's burst so never
 * throttles another's.
 */

export interface RateLimit {
  /** Steady requests per second a company may send. */
  rateLimit: number;
  /** Requests a company may send at once, before the steady rate applies. */
  burstLimit: number;
}

/**
 * The tiers a company's limit can be at, lowest first. Each stage gives each tier its figures
 * (config/capacity.ts); only these figures exist, as each tier is one usage plan in AWS. The first is
 * every new company's; ops raise one company with `npm run company:limits`.
 */
export const RATE_LIMIT_TIERS = ['standard', 'growth', 'scale'] as const;
export type RateLimitTier = (typeof RATE_LIMIT_TIERS)[number];
export const FIRST_TIER: RateLimitTier = RATE_LIMIT_TIERS[0];

/** A stage's figures for every tier. */
export type RateLimitTiers = Readonly<Record<RateLimitTier, RateLimit>>;

export function isRateLimitTier(name: string): name is RateLimitTier {
  return (RATE_LIMIT_TIERS as readonly string[]).includes(name);
}

/** The tier whose figures are exactly these, or null: a limit between tiers has no usage plan. */
export function tierWithLimit(tiers: RateLimitTiers, limit: RateLimit): RateLimitTier | null {
  return RATE_LIMIT_TIERS.find((tier) => tiers[tier].rateLimit === limit.rateLimit && tiers[tier].burstLimit === limit.burstLimit) ?? null;
}

/** A company's limit as the API and the dashboard show it (../shared/api-contract.md, Company). */
export interface RateLimitView {
  tier: string;
  requestsPerSecond: number;
  burst: number;
}

export function rateLimitView(tiers: RateLimitTiers, tier: RateLimitTier): RateLimitView {
  return { tier, requestsPerSecond: tiers[tier].rateLimit, burst: tiers[tier].burstLimit };
}

const USAGE_IDENTIFIER_PREFIX = 'cambio-company-';

/**
 * The value of a company's API Gateway key: what the authorizer returns as `usageIdentifierKey`
 * and the provisioner creates the key with (functions/handlers/jobs/usage-key-provisioner.ts). It identifies,
 * it does not authenticate: with the key source AUTHORIZER, API Gateway ignores any client-sent
 * key, and only the authorizer (after checking X-Api-Key and X-Api-Secret) names one. API Gateway
 * wants at least 20 characters.
 */
export function usageIdentifier(companyId: string): string {
  return `${USAGE_IDENTIFIER_PREFIX}${companyId}`;
}

/** The company a usage identifier names, or null: what the local gateway reads its tier by, as API
 * Gateway finds a key's usage plan from the key alone. */
export function companyOfUsageIdentifier(identifier: string): string | null {
  return identifier.startsWith(USAGE_IDENTIFIER_PREFIX) ? identifier.slice(USAGE_IDENTIFIER_PREFIX.length) : null;
}

/** The API Gateway key's name (unique per stage, as several stages may share an account). */
export function usageKeyName(stage: string, companyId: string): string {
  return `cambio-${stage}-${companyId}`;
}

/**
 * API Gateway's throttling algorithm: a bucket of `burstLimit` tokens refilled at `rateLimit` a
 * second; a request takes one, or is refused with how long until one is there.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: RateLimit,
    now: number,
  ) {
    this.tokens = limit.burstLimit;
    this.last = now;
  }

  /** `{ allowed: true }`, or the whole seconds (at least 1) after which a request would pass. */
  take(now: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    this.tokens = Math.min(this.limit.burstLimit, this.tokens + ((now - this.last) / 1000) * this.limit.rateLimit);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.limit.rateLimit)) };
  }
}

/**
 * One bucket per key (a company, or one of the stage's methods), created on first use at the limit the caller
 * names for it. A key whose limit changes (a company moved to another tier) gets a fresh bucket of
 * the new size, as a key moved to another usage plan starts on that plan's.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { limit: RateLimit; bucket: TokenBucket }>();

  constructor(private readonly defaultLimit: RateLimit) {}

  take(key: string, now: number, limit: RateLimit = this.defaultLimit): ReturnType<TokenBucket['take']> {
    let held = this.buckets.get(key);
    if (!held || held.limit.rateLimit !== limit.rateLimit || held.limit.burstLimit !== limit.burstLimit) {
      held = { limit, bucket: new TokenBucket(limit, now) };
      this.buckets.set(key, held);
    }
    return held.bucket.take(now);
  }
}
