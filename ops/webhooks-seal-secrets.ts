process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { KmsSecretSealer } from '#adapters/webhook-secrets/kms-sealer';
import { LocalSecretSealer } from '#adapters/webhook-secrets/local-sealer';
import { sealPlainSecrets, type WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { argumentsOf, refuser, TARGET_OPTIONS } from './screening-target.ts';
import { onStageTable, stageTableOf } from './stage-table.ts';

/**
 * `npm run webhooks:seal-secrets [-- --stage sandbox|production --table <name> [--kms-key alias/cambio-<stage>-webhook-secrets]] [--json]`:
 * for devops, once per stage that has webhooks registered before secrets were sealed. Seals every
 * webhook secret still stored in the clear (the secret itself does not change; integrators notice
 * nothing). Local runtime data by default, with the local key; `--stage … --table …` works on a
 * deployed stage's table with your AWS credentials (Scan, UpdateItem, and kms:Encrypt on the stage's
 * `alias/cambio-<stage>-webhook-secrets` key, lib/webhook-secrets.ts). The key is the stage's own,
 * derived from `--stage`: the stage's webhook sender opens secrets with that key only, so a secret
 * sealed under another stage's key could never sign again. `--kms-key`, if given, must name that
 * same alias (bare or as an alias ARN); the table must not be another stage's (stage-table.ts).
 * Exits 2 on bad usage (nothing written), 1 on a failure. Older copies (PITR, earlier exports) keep
 * the plain secret: see docs/api-notes.md, Webhooks.
 */
const USAGE = 'Usage: npm run webhooks:seal-secrets -- [--stage sandbox|production --table <TableName output> [--kms-key alias/cambio-<stage>-webhook-secrets]] [--json]';
const refuse: (message: string) => never = refuser(USAGE);

const { values } = argumentsOf({ 'kms-key': { type: 'string' }, json: { type: 'boolean', default: false }, ...TARGET_OPTIONS }, refuse);
const givenKey = values['kms-key'];
if (givenKey !== undefined && !values.table) refuse('--kms-key goes with --stage sandbox|production --table <name>: without them the command seals the local data with the local key.');
const { stage, table } = stageTableOf(values, refuse);
/** The alias the stack gives the stage's key (lib/webhook-secrets.ts); the one its functions seal and open with. */
const stageKey = `alias/cambio-${stage}-webhook-secrets`;
const stageKeyName = new RegExp(`^(arn:aws[\\w-]*:kms:[\\w-]+:\\d{12}:)?${stageKey}$`);
if (givenKey !== undefined && !stageKeyName.test(givenKey)) {
  refuse(`--kms-key ${givenKey} is not the ${stage} stage's key: its webhook secrets are sealed and opened with ${stageKey} (or leave --kms-key out).`);
}

async function seal(db: ReturnType<typeof createDocumentClient>, tableName: string, sealer: WebhookSecretSealer) {
  return sealPlainSecrets(new DynamoWebhookRegistry(db, tableName), sealer);
}

try {
  const sealer = stage === 'local' ? new LocalSecretSealer(STAGES.local.functionEnvironment.LOCAL_WEBHOOK_SEALING_KEY!) : new KmsSecretSealer(givenKey ?? stageKey);
  const result = await onStageTable(stage, table)((db, tableName) => seal(db, tableName, sealer));
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(`${result.sealed.length} webhook secret(s) sealed`);
    for (const id of result.sealed) console.log(`  ${id}`);
    if (result.skipped.length) console.log(`${result.skipped.length} changed while this ran (deleted or already sealed): ${result.skipped.join(', ')}`);
  }
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `webhooks:seal-secrets failed: ${String(error)}`);
  process.exitCode = 1;
}
