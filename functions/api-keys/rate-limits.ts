/**
 * Per-company rate limits (README, Rate limits). In AWS, API Gateway enforces
 * them: the authorizer names the company's API Gateway key as the request's usage identifier, and
 * the stage's usage plan throttles each key on its own. Locally, local/api-server.ts keeps one token
 * bucket per company with the same figures. One company's burst so never throttles another's.
 */

export interface RateLimit {
  /** Steady requests per second a company may send. */
  rateLimit: number;
  /** Requests a company may send at once, before the steady rate applies. */
  burstLimit: number;
}

/**
 * The value of a company's API Gateway key: what the authorizer returns as `usageIdentifierKey`
 * and the provisioner creates the key with (functions/handlers/jobs/usage-key-provisioner.ts). It identifies,
 * it does not authenticate: with the key source AUTHORIZER, API Gateway ignores any client-sent
 * key, and only the authorizer (after checking X-Api-Key and X-Api-Secret) names one. API Gateway
 * wants at least 20 characters.
 */
export function usageIdentifier(companyId: string): string {
  return `cambio-company-${companyId}`;
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

/** One bucket per key (a company, or the whole stage), created on first use. */
export class TokenBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly limit: RateLimit) {}

  take(key: string, now: number): ReturnType<TokenBucket['take']> {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.limit, now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(now);
  }
}
