import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { AddressOfPublicKey, TransactionSigner } from '#functions/networks/signer';
import { hotWalletAddressOf } from '#functions/networks/key-registry';

/** noble's "recovered" format is recovery‖r‖s; the port's is r‖s‖(27 + recovery). */
export function toRecoverableSignature(recovered: Uint8Array): Uint8Array {
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1, 65), 0);
  signature[64] = 27 + recovered[0]!;
  return signature;
}

/** A key held in memory: the local runtime's hot wallet, and the Secrets Manager fallback once read. */
export class LocalKeySigner implements TransactionSigner {
  private readonly privateKey: Uint8Array;
  private readonly walletAddress: string;

  /** `addressOf`: the network's address form; the sole registered network's by default. */
  constructor(privateKeyHex: string, addressOf: AddressOfPublicKey = hotWalletAddressOf) {
    if (!/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) throw new Error('The hot wallet key must be 32 bytes of hex');
    this.privateKey = Uint8Array.from(Buffer.from(privateKeyHex, 'hex'));
    this.walletAddress = addressOf(secp256k1.getPublicKey(this.privateKey, true));
  }

  async address(): Promise<string> {
    return this.walletAddress;
  }

  async signTransactionId(txId: Uint8Array): Promise<Uint8Array> {
    if (txId.length !== 32) throw new Error('A transaction id is 32 bytes');
    // The id is already a digest: sign it as is, with the low S that TRON and Ethereum require.
    return toRecoverableSignature(secp256k1.sign(txId, this.privateKey, { prehash: false, format: 'recovered', lowS: true }));
  }
}
