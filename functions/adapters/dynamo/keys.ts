import type { Currency } from '#domain/money';

/**
 * Every DynamoDB key the service writes or reads is built here and nowhere else; docs/data-model.md
 * lists the entities and access patterns these keys serve.
 */
const company = (companyId: string) => `COMPANY#${companyId}`;

export const keys = {
  companyProfile: (companyId: string) => ({ PK: company(companyId), SK: 'PROFILE' }),
  balance: (companyId: string, currency: Currency) => ({ PK: company(companyId), SK: `BALANCE#${currency}` }),
  balancesOf: (companyId: string) => ({ PK: company(companyId), skPrefix: 'BALANCE#' }),
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  /** GSI1: a company's API keys, for rotation and revocation. */
  apiKeyByCompany: (companyId: string, keyId: string) => ({ GSI1PK: company(companyId), GSI1SK: `APIKEY#${keyId}` }),
} as const;

/** The `type` attribute on every item, so an export can be read without parsing keys. */
export const ENTITY = {
  company: 'Company',
  balance: 'Balance',
  apiKey: 'ApiKey',
} as const;
