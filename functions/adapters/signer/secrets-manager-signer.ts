import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AddressOfPublicKey, TransactionSigner } from '#functions/networks/signer';
import { hotWalletAddressOf } from '#functions/networks/key-registry';
import { awsClient } from '../aws-clients.ts';
import { LocalKeySigner } from './local-key-signer.ts';

/**
 * Fallback for a region or account without KMS secp256k1 keys: the hot wallet key as hex in a
 * Secrets Manager secret, read once per container by the sending job only.
 */
export class SecretsManagerSigner implements TransactionSigner {
  private signer: Promise<LocalKeySigner> | undefined;

  constructor(
    private readonly secretId: string,
    private readonly client: SecretsManagerClient = awsClient(new SecretsManagerClient({})),
    /** The network's address form; the sole registered network's by default. */
    private readonly addressOf: AddressOfPublicKey = hotWalletAddressOf,
  ) {}

  async address(): Promise<string> {
    return (await this.load()).address();
  }

  async signTransactionId(txId: Uint8Array): Promise<Uint8Array> {
    return (await this.load()).signTransactionId(txId);
  }

  private load(): Promise<LocalKeySigner> {
    this.signer ??= this.client.send(new GetSecretValueCommand({ SecretId: this.secretId })).then((output) => {
      const value = output.SecretString?.trim();
      // Never echo the secret: the message names the secret id only.
      if (!value) throw new Error(`Secret ${this.secretId} holds no hot wallet key`);
      return new LocalKeySigner(value.replace(/^0x/, ''), this.addressOf);
    });
    this.signer.catch(() => (this.signer = undefined));
    return this.signer;
  }
}
