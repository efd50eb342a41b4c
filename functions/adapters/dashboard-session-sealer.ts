import type { SessionSealingContext, SessionTokenSealer } from '#functions/people/dashboard-sessions';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { KmsSecretSealer, type KmsBinding } from './webhook-secrets/kms-sealer.ts';
import { LocalSecretSealer, type LocalBinding } from './webhook-secrets/local-sealer.ts';

/**
 * The sealer of the dashboard sessions' Cognito tokens (functions/people/dashboard-sessions.ts): the
 * stage's sealer for secrets at rest, the webhook secrets' (config/stages.ts WEBHOOK_SECRET_SEALER),
 * with the same key, under a purpose of its own. Deployed, KMS's encryption context is
 * `{purpose: 'dashboard-session', sessionKey}`: a value opens only for the session it was sealed
 * for, and IAM gives Encrypt and Decrypt of this purpose to the dashboard API alone, no right on a
 * webhook's purposes with it (lib/webhook-secrets.ts sessionTokens). Locally, AES-256-GCM under the
 * local key, with that binding as its additional data. Built at cold start by the routes that open,
 * use or end a session (functions/handlers/dashboard/session-deps.ts), never by the session
 * authorizer, which does not open them.
 */
export function sessionTokenSealerFrom(settings: SliceSettings<'webhookSealer'>): SessionTokenSealer {
  if (settings.WEBHOOK_SECRET_SEALER === 'kms') {
    return new KmsSecretSealer<SessionSealingContext>(needed(settings.WEBHOOK_SECRET_KMS_KEY_ID, 'WEBHOOK_SECRET_KMS_KEY_ID', 'WEBHOOK_SECRET_SEALER=kms'), undefined, KMS_BINDING);
  }
  if (settings.STAGE !== 'local') throw new Error('WEBHOOK_SECRET_SEALER=local is for the local stage only');
  return new LocalSecretSealer<SessionSealingContext>(needed(settings.LOCAL_WEBHOOK_SEALING_KEY, 'LOCAL_WEBHOOK_SEALING_KEY', 'WEBHOOK_SECRET_SEALER=local'), LOCAL_BINDING);
}

/** KMS's encryption context for a session's tokens: what lib/webhook-secrets.ts conditions on. */
export const KMS_BINDING: KmsBinding<SessionSealingContext> = {
  encryptionContext: (context) => ({ purpose: context.purpose, sessionKey: context.sessionKey }),
  what: 'session token',
};

export const LOCAL_BINDING: LocalBinding<SessionSealingContext> = {
  additionalData: (context) => ['cambio-dashboard-session', context.purpose, context.sessionKey],
  what: 'session token',
  boundTo: 'session',
};
