import type { WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { KmsSecretSealer } from './kms-sealer.ts';
import { LocalSecretSealer } from './local-sealer.ts';

/**
 * The webhook secret sealer a stage uses (config/stages.ts WEBHOOK_SECRET_SEALER), built at cold start
 * by the functions that seal or open (POST /v1/webhooks, the webhook sender). The stack binds the
 * KMS key to those functions alone. The local key is in this repository, so it is refused outside
 * the local stage whatever the environment says.
 */
export function webhookSecretSealerFrom(settings: SliceSettings<'webhookSealer'>): WebhookSecretSealer {
  if (settings.WEBHOOK_SECRET_SEALER === 'kms') {
    return new KmsSecretSealer(needed(settings.WEBHOOK_SECRET_KMS_KEY_ID, 'WEBHOOK_SECRET_KMS_KEY_ID', 'WEBHOOK_SECRET_SEALER=kms'));
  }
  if (settings.STAGE !== 'local') throw new Error('WEBHOOK_SECRET_SEALER=local is for the local stage only');
  return new LocalSecretSealer(needed(settings.LOCAL_WEBHOOK_SEALING_KEY, 'LOCAL_WEBHOOK_SEALING_KEY', 'WEBHOOK_SECRET_SEALER=local'));
}
