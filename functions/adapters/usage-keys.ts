import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import { usageIdentifier, usageKeyName } from '#functions/api-keys/rate-limits';

/**
 * A company's API Gateway key in the stage's usage plan (functions/api-keys/rate-limits.ts), made so
 * that running it twice for a company changes nothing: a stream batch is retried whole, and the
 * backfill may name companies that already have their key.
 */
export async function ensureUsageKey(client: APIGatewayClient, options: { stage: string; usagePlanId: string; companyId: string }): Promise<'created' | 'existed'> {
  const name = usageKeyName(options.stage, options.companyId);
  let keyId: string | undefined;
  let outcome: 'created' | 'existed' = 'created';
  try {
    const created = await client.send(
      new CreateApiKeyCommand({ name, value: usageIdentifier(options.companyId), enabled: true, description: `Cambio ${options.stage}: usage plan key of ${options.companyId}`, tags: { Project: 'Cambio', Stage: options.stage } }),
    );
    keyId = created.id;
  } catch (error) {
    // A key's value is unique in the account and region: this company's key exists.
    if (!(error instanceof ConflictException)) throw error;
    outcome = 'existed';
    const found = await client.send(new GetApiKeysCommand({ nameQuery: name, limit: 500 }));
    keyId = found.items?.find((key) => key.name === name)?.id;
    if (!keyId) throw new Error(`API Gateway says the key of ${options.companyId} exists but lists none named ${name}`);
  }
  try {
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: options.usagePlanId, keyId, keyType: 'API_KEY' }));
  } catch (error) {
    // Already in the plan.
    if (!(error instanceof ConflictException)) throw error;
  }
  return outcome;
}
