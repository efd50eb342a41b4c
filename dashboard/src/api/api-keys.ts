import { send } from './client.ts';
import type { ApiKey, CreateApiKeyRequest, IssuedKey, RollApiKeyRequest } from './types.ts';

/** Integrations → API keys. */
export const apiKeysApi = {
  apiKeys: (companyId: string) => send<ApiKey[]>('GET', `/companies/${companyId}/api-keys`),
  createApiKey: (companyId: string, key: CreateApiKeyRequest) => send<IssuedKey>('POST', `/companies/${companyId}/api-keys`, key),
  rollApiKey: (companyId: string, keyId: string, roll: RollApiKeyRequest) => send<IssuedKey>('POST', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/roll`, roll),
  revokeApiKey: (companyId: string, keyId: string) => send<ApiKey>('POST', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/revoke`, {}),
  changeAllowedIps: (companyId: string, keyId: string, allowedIps: string[]) =>
    send<ApiKey>('PUT', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/allowed-ips`, { allowedIps }),
};
