import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealingContext } from '#functions/webhooks/webhook-secrets';

const SCHEME = 'local:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The local runtime's sealer: AES-256-GCM under LOCAL_WEBHOOK_SEALING_KEY (config/stages.ts, local
 * stage only; a key in this repository, so it protects nothing but sandbox data). The sealing
 * context is the additional authenticated data, so, as with KMS, a value opens only for the
 * company, webhook and purpose it was sealed for. Stored as `local:` + base64 of iv ‖ tag ‖ ciphertext.
 * Other secrets at rest are sealed by the same class under a binding of their own (`LocalBinding`,
 * as KmsSecretSealer's).
 */
export class LocalSecretSealer<C = SealingContext> {
  private readonly key: Buffer;

  constructor(
    hexKey: string,
    private readonly binding: LocalBinding<C> = WEBHOOK_BINDING as unknown as LocalBinding<C>,
  ) {
    if (!/^[0-9a-f]{64}$/i.test(hexKey)) throw new Error('LOCAL_WEBHOOK_SEALING_KEY must be 32 bytes as 64 hex digits');
    this.key = Buffer.from(hexKey, 'hex');
  }

  async seal(secret: string, context: C): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(JSON.stringify(this.binding.additionalData(context)), 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SCHEME}${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  async open(sealed: string, context: C): Promise<string> {
    const { what, boundTo } = this.binding;
    if (!sealed.startsWith(SCHEME)) throw new Error(`Not a locally sealed ${what} (${sealed.split(':')[0]}:)`);
    const bytes = Buffer.from(sealed.slice(SCHEME.length), 'base64');
    if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error(`Sealed ${what} is truncated`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(JSON.stringify(this.binding.additionalData(context)), 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`Sealed ${what} does not open for this ${boundTo}`);
    }
  }
}

/** What a kind of sealed value is bound to (the additional authenticated data, a JSON array whose
 * first element names the kind, so no two kinds share one), and what it is called in errors. */
export interface LocalBinding<C> {
  additionalData(context: C): string[];
  what: string;
  boundTo: string;
}

const WEBHOOK_BINDING: LocalBinding<SealingContext> = {
  additionalData: (context) => ['cambio-webhook-secret', context.purpose, context.companyId, context.webhookId],
  what: 'webhook secret',
  boundTo: 'webhook',
};
