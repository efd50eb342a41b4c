process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { parseSettings } from '#functions/settings/schema';
import { KmsSecretSealer } from '#adapters/webhook-secrets/kms-sealer';
import { LocalSecretSealer } from '#adapters/webhook-secrets/local-sealer';
import { sealPlainSecrets, type WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { withLocalData } from '#local/local-data';

/**
 * `npm run webhooks:seal-secrets [-- --table <name> --kms-key <key id, ARN or alias>] [--json]`: for
 * devops, once per stage that has webhooks registered before secrets were sealed. Seals every
 * webhook secret still stored in the clear (the secret itself does not change; integrators notice
 * nothing). Local runtime data by default, with the local key; `--table` works on a deployed
 * stage's table with your AWS credentials (Scan, UpdateItem, and kms:Encrypt on the stage's
 * `alias/cambio-<stage>-webhook-secrets` key). Older copies (PITR, earlier exports) keep the
 * plain secret: see docs/api-notes.md, Webhooks.
 */
const USAGE = 'Usage: npm run webhooks:seal-secrets -- [--table <name> --kms-key alias/cambio-<stage>-webhook-secrets] [--json]';
const { values } = parseArgs({
  options: {
    table: { type: 'string' },
    'kms-key': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

if (values.table && !values['kms-key']) {
  console.error(`--table needs --kms-key: a deployed stage's secrets are sealed with its KMS key\n${USAGE}`);
  process.exit(2);
}

async function seal(endpoint: string | undefined, tableName: string, sealer: WebhookSecretSealer) {
  const db = createDocumentClient(endpoint);
  try {
    return await sealPlainSecrets(new DynamoWebhookRegistry(db, tableName), sealer);
  } finally {
    db.destroy();
  }
}

try {
  const result = values.table
    ? await seal(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, values.table, new KmsSecretSealer(values['kms-key']!))
    : await withLocalData((endpoint, tableName) => seal(endpoint, tableName, new LocalSecretSealer(STAGES.local.functionEnvironment.LOCAL_WEBHOOK_SEALING_KEY!)));
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
