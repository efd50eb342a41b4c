/**
 * The hot wallet's signer, behind a port so the key can live in AWS KMS (production), in Secrets
 * Manager (fallback) or in memory (local runtime). Only the withdrawal sender holds one: no API or
 * scanner function can sign (the CDK grants say so, test/infra checks it).
 */
export interface TransactionSigner {
  /** The hot wallet's base58 address: the `from` of every withdrawal. */
  address(): Promise<string>;
  /** TRON's 65-byte signature r‖s‖v (v = 27 + recovery id) over a 32-byte transaction id. */
  signTransactionId(txId: Uint8Array): Promise<Uint8Array>;
}
