import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { RATE_LIMIT_TIERS, usageIdentifier, usageKeyName, type RateLimitTier } from '#functions/api-keys/rate-limits';

/** Each tier's usage plan on the stage (lib/rate-limits.ts, the USAGE_PLAN_IDS setting). */
export type UsagePlanIds = Readonly<Record<RateLimitTier, string>>;

/**
 * A company's API Gateway key in its tier's usage plan, and in no other tier's
 * (functions/api-keys/rate-limits.ts), made so that running it twice for a company changes nothing:
 * a stream batch is retried whole, and the backfill may name companies that already have their key.
 *
 * API Gateway refuses a key in two plans of the same API stage, so a key that existed is first taken
 * out of every other tier's plan, then added to its own: between the two the company's requests are
 * answered 429 with Retry-After (INVALID_API_KEY), for the time of one call.
 */
export async function ensureUsageKey(
  client: APIGatewayClient,
  options: { stage: string; companyId: string; tier: RateLimitTier; usagePlanIds: UsagePlanIds },
): Promise<'created' | 'existed'> {
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
  // A key just created is in no plan yet.
  if (outcome === 'existed') {
    for (const tier of RATE_LIMIT_TIERS.filter((other) => other !== options.tier)) {
      try {
        await client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: options.usagePlanIds[tier], keyId }));
      } catch (error) {
        // Not in that plan.
        if (!(error instanceof NotFoundException)) throw error;
      }
    }
  }
  try {
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: options.usagePlanIds[options.tier], keyId, keyType: 'API_KEY' }));
  } catch (error) {
    // Already in the plan.
    if (!(error instanceof ConflictException)) throw error;
  }
  return outcome;
}
