import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealingContext, WebhookSecretSealer } from '#functions/webhooks/webhook-secrets';

const SCHEME = 'local:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The local runtime's sealer: AES-256-GCM under LOCAL_WEBHOOK_SEALING_KEY (config/stages.ts, local
 * stage only; a key in this repository, so it protects nothing but sandbox data). The sealing
 * context is the additional authenticated data, so, as with KMS, a value opens only for the
 * company, webhook and purpose it was sealed for. Stored as `local:` + base64 of iv ‖ tag ‖ ciphertext.
 */
export class LocalSecretSealer implements WebhookSecretSealer {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    if (!/^[0-9a-f]{64}$/i.test(hexKey)) throw new Error('LOCAL_WEBHOOK_SEALING_KEY must be 32 bytes as 64 hex digits');
    this.key = Buffer.from(hexKey, 'hex');
  }

  async seal(secret: string, context: SealingContext): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(additionalData(context));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SCHEME}${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  async open(sealed: string, context: SealingContext): Promise<string> {
    if (!sealed.startsWith(SCHEME)) throw new Error(`Not a locally sealed webhook secret (${sealed.split(':')[0]}:)`);
    const bytes = Buffer.from(sealed.slice(SCHEME.length), 'base64');
    if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error('Sealed webhook secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(additionalData(context));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('Sealed webhook secret does not open for this webhook');
    }
  }
}

function additionalData(context: SealingContext): Buffer {
  return Buffer.from(JSON.stringify(['cambio-webhook-secret', context.purpose, context.companyId, context.webhookId]), 'utf8');
}
