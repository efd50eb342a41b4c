import { DEFAULT_KEY_NAME, type ApiKeyRecord } from '#functions/api-keys/api-keys';
import type { Company } from '#functions/companies/company';
import { companyListed, companySetting, storedFields, type Item } from './item.ts';

/** The one owner of a company's stored `Company` profile and its `ApiKey`s (docs/data-model.md);
 * its balances are items/balance.ts's. */
export const companyItem = {
  ...companySetting('Company', 'PROFILE'),
  toItem: (company: Company): Item => ({ ...companyItem.head(company.id), ...company }),
  fromItem: (item: Item): Company => storedFields<Company>(item, ['id', 'name', 'environment', 'status', 'createdAt']),
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
