import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { mockClient } from 'aws-sdk-client-mock';
import { TronWeb, utils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { KmsSigner } from '#adapters/signer/kms-signer';
import { mockKms } from '../support/kms.ts';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { SecretsManagerSigner } from '#adapters/signer/secrets-manager-signer';

const PRIVATE_KEY = Buffer.from('4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d', 'hex');
const N = secp256k1.Point.CURVE().n;
const kmsFor = (privateKey: Uint8Array, options: { highS: boolean }) => mockKms({ 'alias/hot-wallet': privateKey }, options);

/** tronweb's own recovery of the signer from a transaction id and a 65-byte signature. */
const tronwebRecover = (txId: Uint8Array, signature: Uint8Array) =>
  TronWeb.address.fromHex(utils.crypto.ecRecover(Buffer.from(txId).toString('hex'), Buffer.from(signature).toString('hex')));

describe('KmsSigner', () => {
  const expectedAddress = TronWeb.address.fromPrivateKey(PRIVATE_KEY.toString('hex'));

  it('derives the hot wallet address from the KMS public key', async () => {
    const signer = new KmsSigner('alias/hot-wallet', kmsFor(PRIVATE_KEY, { highS: false }) as unknown as KMSClient);
    expect(await signer.address()).toBe(expectedAddress);
  });

  it.each([false, true])('produces a signature tronweb recovers to the key address, recovery id included (KMS high S: %s)', async (highS) => {
    const kms = kmsFor(PRIVATE_KEY, { highS });
    const signer = new KmsSigner('alias/hot-wallet', kms as unknown as KMSClient);
    for (let i = 0; i < 8; i++) {
      const txId = secp256k1.utils.randomSecretKey();
      const signature = await signer.signTransactionId(txId);
      expect(signature).toHaveLength(65);
      expect([27, 28]).toContain(signature[64]);
      expect(tronwebRecover(txId, signature)).toBe(expectedAddress);
      // Low S, as TRON requires.
      expect(BigInt(`0x${Buffer.from(signature.subarray(32, 64)).toString('hex')}`) <= N / 2n).toBe(true);
    }
    expect(kms.commandCalls(SignCommand)[0]!.args[0].input).toMatchObject({ MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
  });

  it('refuses a key that is not secp256k1', async () => {
    const kms = mockClient(KMSClient);
    kms.on(GetPublicKeyCommand).resolves({ KeySpec: 'ECC_NIST_P256', PublicKey: new Uint8Array(91) });
    await expect(new KmsSigner('k', kms as unknown as KMSClient).address()).rejects.toThrow('ECC_SECG_P256K1');
  });
});

describe('LocalKeySigner and SecretsManagerSigner', () => {
  it('sign as tronweb verifies, from memory or from a secret', async () => {
    const secrets = mockClient(SecretsManagerClient);
    secrets.on(GetSecretValueCommand).resolves({ SecretString: PRIVATE_KEY.toString('hex') });
    const txId = secp256k1.utils.randomSecretKey();
    for (const signer of [new LocalKeySigner(PRIVATE_KEY.toString('hex')), new SecretsManagerSigner('hot', secrets as unknown as SecretsManagerClient)]) {
      expect(tronwebRecover(txId, await signer.signTransactionId(txId))).toBe(await signer.address());
    }
  });

  it('never puts the secret in an error', async () => {
    const secrets = mockClient(SecretsManagerClient);
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'not-a-key-but-secret-material' });
    const error = await new SecretsManagerSigner('hot', secrets as unknown as SecretsManagerClient).address().catch((e: Error) => e);
    expect(String(error)).not.toContain('secret-material');
  });
});
