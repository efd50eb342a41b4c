import type { KMSClient } from '@aws-sdk/client-kms';
import type { SealingContext } from '#functions/webhooks/webhook-secrets';
import { awsClient } from '#adapters/aws-clients';

const SCHEME = 'kms:';

/**
 * Webhook secrets sealed by a symmetric AWS KMS key (lib/webhook-secrets.ts): Encrypt and Decrypt
 * with the sealing context as the encryption context, so KMS opens a ciphertext only for the
 * company, webhook and purpose it was sealed for, and IAM can say which purpose each function may
 * open (the context is also in CloudTrail for every call). Stored as `kms:` + base64 of the
 * ciphertext blob (which names the key).
 *
 * @aws-sdk/client-kms is imported on first use, not with the module: the SDK is not bundled (the
 * Lambda runtime has it), but loading it would still lengthen every cold start of POST
 * /v1/webhooks, an API function held to the cold-start goal (BENCHMARKS.md), for a call that only a
 * valid request reaches.
 *
 * Other secrets at rest (the dashboard sessions' Cognito tokens, functions/adapters/dashboard-session-sealer.ts)
 * are sealed by the same class under a binding of their own (`KmsBinding`): their own context type,
 * whose `purpose` IAM tells apart from the webhooks' (lib/webhook-secrets.ts).
 */
export class KmsSecretSealer<C = SealingContext> {
  private sdk: Promise<{ kms: KMSClient; module: typeof import('@aws-sdk/client-kms') }> | undefined;

  constructor(
    private readonly keyId: string,
    private readonly client?: KMSClient,
    private readonly binding: KmsBinding<C> = WEBHOOK_BINDING as unknown as KmsBinding<C>,
  ) {}

  async seal(secret: string, context: C): Promise<string> {
    const { kms, module } = await this.load();
    const { CiphertextBlob } = await kms.send(
      new module.EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(secret, 'utf8'), EncryptionContext: this.binding.encryptionContext(context) }),
    );
    if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
    return `${SCHEME}${Buffer.from(CiphertextBlob).toString('base64')}`;
  }

  async open(sealed: string, context: C): Promise<string> {
    if (!sealed.startsWith(SCHEME)) throw new Error(`Not a KMS-sealed ${this.binding.what} (${sealed.split(':')[0]}:)`);
    const { kms, module } = await this.load();
    const { Plaintext } = await kms.send(
      new module.DecryptCommand({
        // Named, so a ciphertext of any other key is refused rather than opened with it.
        KeyId: this.keyId,
        CiphertextBlob: Buffer.from(sealed.slice(SCHEME.length), 'base64'),
        EncryptionContext: this.binding.encryptionContext(context),
      }),
    );
    if (!Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(Plaintext).toString('utf8');
  }

  private load() {
    this.sdk ??= import('@aws-sdk/client-kms').then(
      (module) => ({ module, kms: this.client ?? awsClient(new module.KMSClient({})) }),
      (error: unknown) => {
        this.sdk = undefined;
        throw error;
      },
    );
    return this.sdk;
  }
}

/** The encryption context KMS binds the ciphertext to; lib/webhook-secrets.ts conditions on `purpose`. */
export function encryptionContext(context: SealingContext): Record<string, string> {
  return { purpose: context.purpose, companyId: context.companyId, webhookId: context.webhookId };
}

/** What a kind of sealed value is bound to (its KMS encryption context, with a `purpose` of its
 * own), and what it is called in errors. */
export interface KmsBinding<C> {
  encryptionContext(context: C): Record<string, string>;
  what: string;
}

const WEBHOOK_BINDING: KmsBinding<SealingContext> = { encryptionContext, what: 'webhook secret' };
