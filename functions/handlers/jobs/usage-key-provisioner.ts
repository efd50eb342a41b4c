import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { awsClient } from '#adapters/aws-clients';
import { runJob } from '#adapters/observability';
import { ensureUsageKey } from '#adapters/usage-keys';
import { companyItem } from '#adapters/dynamo/items/company';
import { functionSettings } from '#functions/settings/functions';

const { STAGE: stage, USAGE_PLAN_ID: usagePlanId } = functionSettings('jobs/usage-key-provisioner');
const client = awsClient(new APIGatewayClient({}));

/** A backfill by hand (README, Rate limits): companies created before the usage plan existed. */
export interface BackfillEvent {
  companyIds: string[];
}

/**
 * Gives each new company its API Gateway key in the stage's usage plan. It runs
 * on the table's stream, filtered to inserted Company items by the event source mapping, so every
 * way a company is created (npm run company:create against a stage, a sign-up) gets its key within
 * about a second without any of them calling API Gateway; until then the gateway answers the
 * company 429 with Retry-After (functions/http/gateway-responses.ts INVALID_API_KEY). A failing
 * batch is retried whole: ensureUsageKey changes nothing the second time.
 */
export async function handler(event: Partial<DynamoDBStreamEvent> & Partial<BackfillEvent>, context?: { awsRequestId?: string }) {
  const companyIds = event.Records ? event.Records.flatMap((record) => createdCompanyId(record)) : (event.companyIds ?? []);
  return runJob(event.Records ? 'usage key provisioning' : 'usage key backfill', context, async ({ log }) => {
    const outcome = { created: 0, existed: 0 };
    for (const companyId of companyIds) {
      const result = await ensureUsageKey(client, { stage, usagePlanId, companyId });
      outcome[result] += 1;
      log.info('usage key ensured', { companyId, result });
    }
    return outcome;
  });
}

function createdCompanyId(record: DynamoDBStreamEvent['Records'][number]): string[] {
  // Checked here too: the filter is the stack's, and a replayed batch may not have had it.
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || image?.type?.S !== companyItem.type || !image.id?.S) return [];
  return [image.id.S];
}
