import { companyOfUsageIdentifier, FIRST_TIER, type RateLimitTier, type RateLimitTiers } from '#functions/api-keys/rate-limits';

/**
 * What the local gateway knows of usage plans: each tier's figures, and which tier a company's key
 * is in. API Gateway knows a key's usage plan without asking the authorizer; locally the gateway
 * reads the company's tier from its Company item (local/runtime.ts), a few seconds at most old.
 */
export interface CompanyLimits {
  tiers: RateLimitTiers;
  /** The company's tier as stored (its Company item), as API Gateway knows a key's usage plan
   * without asking the authorizer. Read again once TIER_CACHE_MS has passed. */
  tierOf(companyId: string): Promise<RateLimitTier>;
}

/**
 * How long the local gateway keeps a company's tier before reading it again: a tier changed by
 * `npm run company:limits` applies within this, without a restart, as a key moved to another usage
 * plan applies within seconds in AWS; a burst meanwhile costs no table reads.
 */
export const TIER_CACHE_MS = 3_000;

/**
 * The tier of the company a usage plan key names, read at most once per TIER_CACHE_MS a company; the
 * requests that arrive while it is read wait on the one read, and a failed read is not kept.
 */
export function usagePlanTiers(limits: CompanyLimits): (usageIdentifierKey: string) => Promise<RateLimitTier> {
  const cache = new Map<string, { tier: Promise<RateLimitTier>; expiresAt: number }>();
  return async (usageIdentifierKey) => {
    const companyId = companyOfUsageIdentifier(usageIdentifierKey);
    if (companyId === null) return FIRST_TIER;
    const cached = cache.get(companyId);
    if (cached && cached.expiresAt > Date.now()) return cached.tier;
    const tier = limits.tierOf(companyId);
    cache.set(companyId, { tier, expiresAt: Date.now() + TIER_CACHE_MS });
    tier.catch(() => cache.delete(companyId));
    return tier;
  };
}
