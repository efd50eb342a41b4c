import type { SealingContext, WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';
import type { IdempotencyStore, StoredResponse } from '#http/idempotency';

/**
 * POST /v1/webhooks with an Idempotency-Key replays its first answer, secret included
 * (../shared/api-contract.md, Conventions), and that answer is stored in the table for 24 h. Stored
 * as is, it would put the secret in the daily export the sealing keeps it out of, so the answer is
 * kept with `secret` replaced by `sealedSecret`, sealed for `idempotent-replay` (a purpose only this
 * route may open: lib/webhook-secrets.ts), and opened again on replay into the same bytes.
 */
export function sealingReplayedSecrets(store: IdempotencyStore, sealer: WebhookSecretSealer): IdempotencyStore {
  return {
    async begin(scope, now) {
      const outcome = await store.begin(scope, now);
      if (outcome.kind !== 'replay') return outcome;
      return { kind: 'replay', response: await swapSecret(outcome.response, 'sealedSecret', 'secret', (sealed, context) => sealer.open(sealed, context), scope.companyId) };
    },
    async complete(scope, response, now) {
      return store.complete(scope, await sealedForReplay(response, sealer, scope.companyId), now);
    },
    release: (scope) => store.release(scope),
  };
}

/** The answer as it is stored: its `secret` sealed for `idempotent-replay`, as `sealedSecret`. */
export function sealedForReplay(response: StoredResponse, sealer: WebhookSecretSealer, companyId: string): Promise<StoredResponse> {
  return swapSecret(response, 'secret', 'sealedSecret', (secret, context) => sealer.seal(secret, context), companyId);
}

/** Renames `data[from]` to `data[to]` in place (key order kept, so a replay is byte for byte the
 * first answer), transforming its value. Answers without it (refusals) pass unchanged. */
async function swapSecret(
  response: StoredResponse,
  from: string,
  to: string,
  transform: (value: string, context: SealingContext) => Promise<string>,
  companyId: string,
): Promise<StoredResponse> {
  const envelope = JSON.parse(response.body) as { data?: Record<string, unknown> };
  const data = envelope.data;
  if (!data || typeof data[from] !== 'string') return response;
  const context: SealingContext = { companyId, webhookId: String(data.id), purpose: 'idempotent-replay' };
  const value = await transform(data[from] as string, context);
  envelope.data = Object.fromEntries(Object.entries(data).map(([key, v]) => (key === from ? [to, value] : [key, v])));
  return { ...response, body: JSON.stringify(envelope) };
}
