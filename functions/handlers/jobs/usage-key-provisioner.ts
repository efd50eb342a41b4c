import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { awsClient } from '#adapters/aws-clients';
import { runJob } from '#adapters/observability';
import { ensureUsageKey } from '#adapters/usage-keys';
import { companyItem } from '#adapters/dynamo/items/company';
import { fromDynamoJson } from '#adapters/dynamo/items/item';
import { FIRST_TIER, type RateLimitTier } from '#functions/api-keys/rate-limits';
import { functionSettings } from '#functions/settings/functions';

const { STAGE: stage, USAGE_PLAN_IDS: usagePlanIds } = functionSettings('jobs/usage-key-provisioner');
const client = awsClient(new APIGatewayClient({}));

/** A backfill by hand (README, Rate limits): companies created before the usage plans existed, all at
 * the first tier unless `tier` says otherwise. */
export interface BackfillEvent {
  companyIds: string[];
  tier?: RateLimitTier;
}

type StreamRecord = DynamoDBStreamEvent['Records'][number];
type Image = NonNullable<NonNullable<StreamRecord['dynamodb']>['NewImage']>;

/**
 * Keeps each company's API Gateway key in its tier's usage plan. It runs on the table's stream,
 * filtered by the event source mapping to inserted Company items (a new company: its key, in its
 * tier's plan) and changed ones (a company moved to another tier by `npm run company:limits`: its key
 * moves to that tier's plan). Every way a company is created (npm run company:create against a
 * stage, a sign-up) so gets its key within about a second without any of them calling API Gateway;
 * until then the gateway answers the company 429 with Retry-After (functions/http/gateway-responses.ts
 * INVALID_API_KEY). A failing batch is retried whole: ensureUsageKey changes nothing the second time.
 */
export async function handler(event: Partial<DynamoDBStreamEvent> & Partial<BackfillEvent>, context?: { awsRequestId?: string }) {
  const placements = event.Records ? event.Records.flatMap(placementOf) : (event.companyIds ?? []).map((companyId) => ({ companyId, tier: event.tier ?? FIRST_TIER }));
  return runJob(event.Records ? 'usage key provisioning' : 'usage key backfill', context, async ({ log }) => {
    const outcome = { created: 0, existed: 0 };
    for (const { companyId, tier } of placements) {
      const result = await ensureUsageKey(client, { stage, companyId, tier, usagePlanIds });
      outcome[result] += 1;
      log.info('usage key ensured', { companyId, tier, result });
    }
    return outcome;
  });
}

/** The company whose key must be put in its tier's plan: an inserted one, or one whose tier changed. */
function placementOf(record: StreamRecord): { companyId: string; tier: RateLimitTier }[] {
  // Checked here too: the filter is the stack's, and a replayed batch may not have had it.
  const image = record.dynamodb?.NewImage;
  if (!isCompany(image) || !image.id?.S) return [];
  const tier = tierOf(image);
  if (record.eventName === 'INSERT') return [{ companyId: image.id.S, tier }];
  if (record.eventName === 'MODIFY' && isCompany(record.dynamodb?.OldImage) && tierOf(record.dynamodb.OldImage) !== tier) return [{ companyId: image.id.S, tier }];
  return [];
}

function isCompany(image: Image | undefined): image is Image {
  return image?.type?.S === companyItem.type;
}

const tierOf = (image: Image) => companyItem.tierOf(fromDynamoJson(image as Parameters<typeof fromDynamoJson>[0]));
