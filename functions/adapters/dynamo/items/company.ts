import { DEFAULT_KEY_NAME, type ApiKeyRecord } from '#functions/api-keys/api-keys';
import type { Company } from '#functions/companies/company';
import { FIRST_TIER, isRateLimitTier, type RateLimitTier } from '#functions/api-keys/rate-limits';
import { companyListed, companySetting, storedFields, type Item } from './item.ts';

/** A profile as it may be written: one without a rate limit tier is at the first (fromItem). */
type StoredCompany = Omit<Company, 'rateLimitTier'> & Partial<Pick<Company, 'rateLimitTier'>>;

/** The one owner of a company's stored `Company` profile and its `ApiKey`s (docs/data-model.md);
 * its balances are items/balance.ts's. */
export const companyItem = {
  ...companySetting('Company', 'PROFILE'),
  toItem: (company: StoredCompany): Item => ({ ...companyItem.head(company.id), ...company }),
  /** A profile stored before companies had tiers reads as the first tier, so it needs no migration. */
  fromItem: (item: Item): Company => ({
    ...storedFields<Omit<Company, 'rateLimitTier'>>(item, ['id', 'name', 'environment', 'status', 'createdAt']),
    rateLimitTier: companyItem.tierOf(item),
  }),
  /** The tier a stored profile (or a stream image of one, read by the usage key provisioner) is at. */
  tierOf: (item: Item): RateLimitTier => {
    const tier = item.rateLimitTier;
    if (tier === undefined || tier === null) return FIRST_TIER;
    if (typeof tier !== 'string' || !isRateLimitTier(tier)) throw new Error(`Company ${String(item.id)} is at an unknown rate limit tier ${JSON.stringify(tier)}`);
    return tier;
  },
  /**
   * The update that moves a company to `to`, only from the tier it was read at (a profile without
   * one is at the first), so two changes at once cannot both be audited as from the same tier.
   */
  tierChange: (company: Company, to: RateLimitTier) => ({
    key: companyItem.key(company.id),
    expression: 'SET rateLimitTier = :to',
    condition: company.rateLimitTier === FIRST_TIER ? 'attribute_exists(PK) AND (attribute_not_exists(rateLimitTier) OR rateLimitTier = :from)' : 'rateLimitTier = :from',
    values: { ':to': to, ':from': company.rateLimitTier },
  }),
};

export const apiKeyItem = {
  /** GSI1: a company's API keys, for rotation and revocation. */
  ...companyListed('ApiKey', 'APIKEY'),

  toItem: (record: ApiKeyRecord): Item => ({
    ...apiKeyItem.keys(record.companyId, record.keyId),
    // Absent rather than NULL, so `attribute_not_exists(lastUsedAt)` and friends mean "never".
    ...Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
  }),
  /** A key stored with only the first five fields reads as an active key named DEFAULT_KEY_NAME
   * with full access, so it needs no migration. */
  fromItem: (item: Item): ApiKeyRecord => ({
    keyId: item.keyId as string,
    companyId: item.companyId as string,
    environment: item.environment as ApiKeyRecord['environment'],
    name: (item.name as string | undefined) ?? DEFAULT_KEY_NAME,
    status: (item.status as ApiKeyRecord['status'] | undefined) ?? 'active',
    access: (item.access as ApiKeyRecord['access'] | undefined) ?? 'full',
    allowedIps: (item.allowedIps as string[] | undefined) ?? null,
    secretHash: item.secretHash as string,
    previousSecretHash: (item.previousSecretHash as string | undefined) ?? null,
    previousSecretExpiresAt: (item.previousSecretExpiresAt as string | undefined) ?? null,
    createdAt: item.createdAt as string,
    createdBy: (item.createdBy as string | undefined) ?? null,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
    lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
    lastUsedIp: (item.lastUsedIp as string | undefined) ?? null,
  }),
};
