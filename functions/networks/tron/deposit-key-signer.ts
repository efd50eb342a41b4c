import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { HDKey } from '@scure/bip32';
import type { DepositKeySigner } from './sweeps.ts';
import { awsClient } from '../../adapters/aws-clients.ts';
import { LocalKeySigner } from '../../adapters/signer/local-key-signer.ts';

/**
 * Signs as a deposit address, from the account's extended private key (m/44'/195'/0'): only the
 * sweeper holds it. The API derives the same addresses from the matching xpub and never sees this.
 */
export class HdDepositKeySigner implements DepositKeySigner {
  private account: Promise<HDKey> | undefined;

  constructor(private readonly loadXprv: () => Promise<string>) {}

  async signFor(index: number, txId: Uint8Array): Promise<Uint8Array> {
    return (await this.keyAt(index)).signTransactionId(txId);
  }

  async addressAt(index: number): Promise<string> {
    return (await this.keyAt(index)).address();
  }

  private async keyAt(index: number): Promise<LocalKeySigner> {
    const child = (await this.load()).deriveChild(0).deriveChild(index);
    if (!child.privateKey) throw new Error(`No private key at index ${index}`);
    return new LocalKeySigner(Buffer.from(child.privateKey).toString('hex'));
  }

  private load(): Promise<HDKey> {
    this.account ??= this.loadXprv().then((xprv) => {
      const account = HDKey.fromExtendedKey(xprv);
      if (!account.privateKey || account.depth !== 3) throw new Error("The sweep key must be the m/44'/195'/0' account xprv");
      return account;
    });
    this.account.catch(() => (this.account = undefined));
    return this.account;
  }
}

export function secretsManagerXprv(secretId: string, client = awsClient(new SecretsManagerClient({}))): () => Promise<string> {
  return async () => {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!SecretString?.trim()) throw new Error(`Secret ${secretId} holds no account key`);
    return SecretString.trim();
  };
}
