process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { changeRateLimitTier } from '#functions/companies/company';
import { tierWithLimit } from '#functions/api-keys/rate-limits';
import { ApiError } from '#functions/shared/errors';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { STAGES } from '../config/stages.ts';
import { tiersOf } from '../config/capacity.ts';
import { argumentsOf, operator, refuser, TARGET_OPTIONS } from './screening-target.ts';
import { onStageTable, stageTableOf } from './stage-table.ts';

/**
 * `npm run company:limits -- --company <cmp_…> --rate N --burst M [--stage … --table …] [--json]`:
 * raises (or lowers) one company's own rate limit (README, Rate limits) to one of the stage's tiers
 * (config/capacity.ts). Only the tiers' figures are accepted: in AWS each tier is a usage plan, and a
 * company's limit is the plan its key is in. The company's tier and its audit entry (who, from, to)
 * are written in one transaction; the usage key provisioner then moves its key to the tier's plan
 * within seconds, and the local gateway applies it within TIER_CACHE_MS (local/usage-plan-tiers.ts). The
 * same tier again writes nothing.
 *
 * Locally by default; on a deployed stage with `--stage … --table …`, with the operator's AWS
 * credentials. Exits 2 on bad usage (nothing written), 1 on a failure or an unknown company.
 */
const USAGE = 'Usage: npm run company:limits -- --company <cmp_…> --rate <requests a second> --burst <requests at once> [--stage sandbox|production --table <TableName output>] [--json]';
const refuse: (message: string) => never = refuser(USAGE);

const { values } = argumentsOf({ company: { type: 'string' }, rate: { type: 'string' }, burst: { type: 'string' }, json: { type: 'boolean', default: false }, ...TARGET_OPTIONS }, refuse);
const companyId = values.company ?? '';
if (!/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/.test(companyId)) refuse(`--company must be a company id (cmp_ and 26 characters), got ${JSON.stringify(companyId)}.`);
const { stage, table } = stageTableOf(values, refuse);
const wholeNumber = (name: 'rate' | 'burst') => {
  const text = values[name] ?? '';
  if (!/^[1-9]\d{0,8}$/.test(text)) refuse(`--${name} must be a whole number of requests, got ${JSON.stringify(text)}.`);
  return Number(text);
};
const limit = { rateLimit: wholeNumber('rate'), burstLimit: wholeNumber('burst') };
const { capacity } = STAGES[stage];
const inWords = (figures: { rateLimit: number; burstLimit: number }) => `${figures.rateLimit} requests a second, bursts of ${figures.burstLimit}`;
const tier = tierWithLimit(capacity.tiers, limit);
if (tier === null) {
  const tiers = tiersOf(capacity).map((one) => `  ${one.tier}: --rate ${one.rateLimit} --burst ${one.burstLimit}`);
  refuse(`--rate ${limit.rateLimit} --burst ${limit.burstLimit} is none of the ${stage} stage's tiers (each is a usage plan in AWS, so only these exist):\n${tiers.join('\n')}`);
}

try {
  const by = { actor: { personId: null, email: null }, origin: { sourceIp: 'command line', userAgent: `company:limits (${operator()})` } };
  const change = await onStageTable(stage, table)((db, tableName) => changeRateLimitTier(new DynamoCompanyStore(db, tableName), companyId, tier, by));
  if (values.json) {
    console.log(JSON.stringify({ companyId, stage, tier, requestsPerSecond: limit.rateLimit, burst: limit.burstLimit, from: change.from, changed: change.changed }));
  } else if (!change.changed) {
    console.log(`${companyId} is already at the ${tier} tier on ${stage} (${inWords(limit)}): nothing written.`);
  } else {
    const applied = stage === 'local' ? 'The local runtime applies it within seconds.' : `Its API key moves to the ${tier} usage plan within seconds (the usage key provisioner).`;
    console.log(`${companyId} moved from the ${change.from} tier (${inWords(capacity.tiers[change.from])}) to ${tier} (${inWords(limit)}) on ${stage}, audited. ${applied}`);
  }
} catch (error) {
  if (error instanceof JavaMissingError) console.error(error.message);
  else if (error instanceof ApiError && error.code === 'NOT_FOUND') console.error(`No company ${companyId} on the ${stage} stage's table: nothing written.`);
  else console.error(`company:limits failed: ${String(error)}`);
  process.exitCode = 1;
}
