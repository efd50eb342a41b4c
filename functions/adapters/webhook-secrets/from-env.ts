import type { WebhookSecretSealer } from '#domain/webhook-secrets';
import { optionalEnv, requireEnv } from '../env.ts';
import { KmsSecretSealer } from './kms-sealer.ts';
import { LocalSecretSealer } from './local-sealer.ts';

/**
 * The webhook secret sealer a stage uses (lib/stages.ts WEBHOOK_SECRET_SEALER), read at cold start
 * by the functions that seal or open (POST /v1/webhooks, the webhook sender). The stack names the
 * KMS key to those functions alone. The local key is in this repository, so it is refused outside
 * the local stage whatever the environment says.
 */
export function webhookSecretSealerFromEnv(): WebhookSecretSealer {
  const kind = requireEnv('WEBHOOK_SECRET_SEALER');
  if (kind === 'kms') return new KmsSecretSealer(requireEnv('WEBHOOK_SECRET_KMS_KEY_ID'));
  if (kind === 'local') {
    if (optionalEnv('STAGE') !== 'local') throw new Error('WEBHOOK_SECRET_SEALER=local is for the local stage only');
    return new LocalSecretSealer(requireEnv('LOCAL_WEBHOOK_SEALING_KEY'));
  }
  throw new Error(`WEBHOOK_SECRET_SEALER must be kms or local, not "${kind}"`);
}
