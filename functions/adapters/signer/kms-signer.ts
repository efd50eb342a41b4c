import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { AddressOfPublicKey, TransactionSigner } from '#functions/networks/signer';
import { hotWalletAddressOf } from '#functions/networks/key-registry';
import { awsClient } from '../aws-clients.ts';

const CURVE_ORDER = secp256k1.Point.CURVE().n;

/**
 * The hot wallet's key in AWS KMS (ECC_SECG_P256K1): the private key never leaves KMS. KMS signs
 * the transaction id as a digest and returns a DER signature without a recovery id, so the id is
 * found here by trying both and keeping the one that recovers the key's own public key.
 */
export class KmsSigner implements TransactionSigner {
  private publicKey: Uint8Array | undefined;
  private walletAddress: string | undefined;

  constructor(
    private readonly keyId: string,
    private readonly kms: KMSClient = awsClient(new KMSClient({})),
    /** The network's address form; the sole registered network's by default. */
    private readonly addressOf: AddressOfPublicKey = hotWalletAddressOf,
  ) {}

  async address(): Promise<string> {
    await this.loadPublicKey();
    return this.walletAddress!;
  }

  async signTransactionId(txId: Uint8Array): Promise<Uint8Array> {
    if (txId.length !== 32) throw new Error('A transaction id is 32 bytes');
    const publicKey = await this.loadPublicKey();
    const { Signature } = await this.kms.send(
      new SignCommand({ KeyId: this.keyId, Message: txId, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    if (!Signature) throw new Error('KMS returned no signature');
    let signature = secp256k1.Signature.fromBytes(Signature, 'der');
    // KMS may return a high S; TRON and Ethereum only accept the low one.
    if (signature.s > CURVE_ORDER / 2n) signature = new secp256k1.Signature(signature.r, CURVE_ORDER - signature.s);
    const compact = signature.toBytes('compact');
    for (const recovery of [0, 1]) {
      const candidate = new Uint8Array(65);
      candidate[0] = recovery;
      candidate.set(compact, 1);
      const recovered = secp256k1.recoverPublicKey(candidate, txId, { prehash: false });
      if (Buffer.from(recovered).equals(Buffer.from(publicKey))) {
        const recoverable = new Uint8Array(65);
        recoverable.set(compact, 0);
        recoverable[64] = 27 + recovery;
        return recoverable;
      }
    }
    throw new Error('The KMS signature does not recover to the key it was asked to sign with');
  }

  /** KMS gives the public key as a DER SubjectPublicKeyInfo; its last 65 bytes are 04‖X‖Y. */
  private async loadPublicKey(): Promise<Uint8Array> {
    if (this.publicKey) return this.publicKey;
    const { PublicKey, KeySpec } = await this.kms.send(new GetPublicKeyCommand({ KeyId: this.keyId }));
    if (!PublicKey || KeySpec !== 'ECC_SECG_P256K1') throw new Error(`KMS key ${this.keyId} is not an ECC_SECG_P256K1 key`);
    const uncompressed = PublicKey.subarray(PublicKey.length - 65);
    this.publicKey = secp256k1.Point.fromBytes(uncompressed).toBytes(true);
    this.walletAddress = this.addressOf(this.publicKey);
    return this.publicKey;
  }
}
