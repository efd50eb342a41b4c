/**
 * Webhook signing secrets at rest. A secret is a shared HMAC key (Standard Webhooks), so it cannot
 * be kept as a hash the way API secrets are; instead it is sealed (encrypted) before it is written,
 * and only what must sign opens it. The table's daily export for finance (docs/data-model.md) then
 * carries ciphertext that the export's readers cannot open: they hold no right on the sealing key.
 *
 * A sealed value is bound to its webhook: it opens only with the same company, webhook and purpose,
 * so a ciphertext copied onto another webhook's item (or out of an idempotency record into a
 * webhook) does not open. docs/api-notes.md, Webhooks, has the decision.
 */

/**
 * What a sealed secret is for, which decides who may open it (lib/webhook-secrets.ts):
 * - `webhook-signing`: the webhook item's secret, opened by the sender to sign deliveries;
 * - `idempotent-replay`: the copy inside the stored answer of a POST /v1/webhooks that carried an
 *   Idempotency-Key, opened only by that route to replay its answer.
 */
export type SecretPurpose = 'webhook-signing' | 'idempotent-replay';

export interface SealingContext {
  companyId: string;
  webhookId: string;
  purpose: SecretPurpose;
}

/** The port: AWS KMS in deployed stages, AES-256-GCM with a local key in the local runtime. A
 * sealed value starts with its scheme (`kms:`, `local:`). */
export interface WebhookSecretSealer {
  seal(secret: string, context: SealingContext): Promise<string>;
  /** Throws when the value was not sealed for this context (or by this sealer). */
  open(sealed: string, context: SealingContext): Promise<string>;
}

export const signingContext = (webhook: { companyId: string; id: string }): SealingContext => ({
  companyId: webhook.companyId,
  webhookId: webhook.id,
  purpose: 'webhook-signing',
});

/** An item `npm run webhooks:seal-secrets` has not sealed yet holds the `whsec_` secret itself. */
export function isPlainSecret(value: string): boolean {
  return value.startsWith('whsec_');
}

/** The secret that signs a webhook's deliveries. A plain secret is returned as it is, so a webhook
 * not yet sealed keeps working. */
export async function openSigningSecret(sealer: WebhookSecretSealer, webhook: { companyId: string; id: string; sealedSecret: string }): Promise<string> {
  if (isPlainSecret(webhook.sealedSecret)) return webhook.sealedSecret;
  return sealer.open(webhook.sealedSecret, signingContext(webhook));
}

/**
 * Remembers what `open` returned, per sealed value and context, for at most `maxAgeMs` and for the
 * `maxEntries` most recently used ones: the webhook sender opens a webhook's secret once per burst
 * of deliveries rather than calling KMS for each. The age limit bounds how long a warm sender keeps
 * signing after the key is disabled. Concurrent opens of one value share one call; a failed open
 * is not remembered.
 */
export function cachingOpens(
  sealer: WebhookSecretSealer,
  options: { maxEntries: number; maxAgeMs: number } = { maxEntries: 500, maxAgeMs: 5 * 60_000 },
  now: () => number = Date.now,
): WebhookSecretSealer {
  const opened = new Map<string, { secret: Promise<string>; at: number }>();
  return {
    seal: (secret, context) => sealer.seal(secret, context),
    open(sealed, context) {
      // The context is part of the key: a value copied onto another webhook must not open from here.
      const key = JSON.stringify([context.purpose, context.companyId, context.webhookId, sealed]);
      const hit = opened.get(key);
      if (hit && now() - hit.at < options.maxAgeMs) {
        // Map keeps insertion order: re-inserting makes it the most recently used.
        opened.delete(key);
        opened.set(key, hit);
        return hit.secret;
      }
      opened.delete(key);
      const secret = sealer.open(sealed, context);
      opened.set(key, { secret, at: now() });
      secret.catch(() => {
        if (opened.get(key)?.secret === secret) opened.delete(key);
      });
      while (opened.size > options.maxEntries) opened.delete(opened.keys().next().value!);
      return secret;
    },
  };
}

/** Webhooks whose item still holds the plain secret, and the guarded
 * rewrite that seals one. */
export interface PlainSecretStore {
  webhooksWithPlainSecrets(): Promise<{ companyId: string; id: string; sealedSecret: string }[]>;
  /** Replaces the plain secret by the sealed one unless the item changed since it was read; false
   * if it did (deleted, or already sealed). */
  replacePlainSecret(webhook: { companyId: string; id: string }, plain: string, sealed: string): Promise<boolean>;
}

/**
 * `npm run webhooks:seal-secrets`: seals every secret still stored in the clear. The secret does not
 * change, so integrators notice nothing. Copies made before (PITR backups, earlier daily exports)
 * still hold it: a webhook whose secret may have been read from one needs a new secret (delete and
 * register again).
 */
export async function sealPlainSecrets(store: PlainSecretStore, sealer: WebhookSecretSealer): Promise<{ sealed: string[]; skipped: string[] }> {
  const sealed: string[] = [];
  const skipped: string[] = [];
  for (const webhook of await store.webhooksWithPlainSecrets()) {
    const plain = webhook.sealedSecret;
    if (!isPlainSecret(plain)) continue;
    const done = await store.replacePlainSecret(webhook, plain, await sealer.seal(plain, signingContext(webhook)));
    (done ? sealed : skipped).push(webhook.id);
  }
  return { sealed, skipped };
}
