/** A network's address of a secp256k1 public key (NetworkKeys.addressFromPublicKey). */
export type AddressOfPublicKey = (publicKey: Uint8Array) => string;

/**
 * The hot wallet's signer, behind a port so the key can live in AWS KMS (production), in Secrets
 * Manager (fallback) or in memory (local runtime). Only the withdrawal sender holds one: no API or
 * scanner function can sign (the CDK grants say so, test/infra checks it).
 */
export interface TransactionSigner {
  /** The hot wallet's address on its network: the `from` of every withdrawal. */
  address(): Promise<string>;
  /** The 65-byte recoverable signature r‖s‖v (v = 27 + recovery id, low S) over a 32-byte
   * transaction id: TRON's form, and Ethereum's before a network's builder adjusts v. */
  signTransactionId(txId: Uint8Array): Promise<Uint8Array>;
}
