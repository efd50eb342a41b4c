import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { createKeyPairFromBytes, getAddressDecoder, getAddressFromPublicKey, getPublicKeyFromAddress, signatureBytes, signBytes, verifySignature, type Address, type SignatureDictionary, type TransactionPartialSigner } from '@solana/kit';
import { awsClient } from '../../adapters/aws-clients.ts';
import { needed } from '../../settings/schema.ts';
import type { SolanaNetworkSettings } from './settings.ts';

/**
 * The Solana hot wallet's signer: an Ed25519 key that signs a transaction's message bytes as they
 * are (Ed25519 hashes inside, so there is no transaction id to sign as on TRON). In AWS the key is a
 * KMS key of spec ECC_NIST_EDWARDS25519 and never leaves KMS; on the local stage it is the Solana
 * CLI's 64-byte keypair (secret ‖ public) from SOLANA's `localHotWalletKey`. kit assembles the
 * signed transaction (`asTransactionSigner`): nothing here encodes a transaction.
 */
export interface SolanaSigner {
  /** The hot wallet's address: its 32-byte public key in base58. */
  address(): Promise<string>;
  /** The 64-byte Ed25519 signature of `message` (a transaction's message bytes). */
  signMessage(message: Uint8Array): Promise<Uint8Array>;
}

/** The local stage's hot wallet: the keypair in memory, signing through WebCrypto (kit's keys). */
export function localSolanaSigner(keypairHex: string): SolanaSigner {
  // kit refuses 64 bytes whose public half is not the secret half's key.
  const keyPair = createKeyPairFromBytes(Buffer.from(keypairHex, 'hex'));
  const address = keyPair.then((pair) => getAddressFromPublicKey(pair.publicKey));
  // Unawaited until the first call: a bad key then fails that call, not the process.
  keyPair.catch(() => {});
  address.catch(() => {});
  return {
    address: () => address,
    signMessage: async (message) => signBytes((await keyPair).privateKey, message),
  };
}

/** The public key KMS gives is a DER SubjectPublicKeyInfo; an Ed25519 key's is its last 32 bytes. */
const ED25519_PUBLIC_KEY_BYTES = 32;
const ED25519_SIGNATURE_BYTES = 64;

/**
 * The hot wallet's key in AWS KMS (ECC_NIST_EDWARDS25519): KMS signs the message itself (pure
 * Ed25519, `ED25519_SHA_512` over a `RAW` message; Solana's messages are at most 1,232 bytes, under
 * KMS's 4,096).
 */
export class KmsSolanaSigner implements SolanaSigner {
  private walletAddress: Promise<string> | undefined;

  constructor(
    private readonly keyId: string,
    private readonly kms: KMSClient = awsClient(new KMSClient({})),
  ) {}

  address(): Promise<string> {
    // A failed read is asked again on the next call rather than kept.
    this.walletAddress ??= this.loadAddress().catch((error: unknown) => {
      this.walletAddress = undefined;
      throw error;
    });
    return this.walletAddress;
  }

  async signMessage(message: Uint8Array): Promise<Uint8Array> {
    const { Signature } = await this.kms.send(new SignCommand({ KeyId: this.keyId, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' }));
    if (!Signature || Signature.length !== ED25519_SIGNATURE_BYTES) throw new Error(`KMS key ${this.keyId} gave no 64-byte Ed25519 signature`);
    return Signature;
  }

  private async loadAddress(): Promise<string> {
    const { PublicKey, KeySpec } = await this.kms.send(new GetPublicKeyCommand({ KeyId: this.keyId }));
    if (!PublicKey || KeySpec !== 'ECC_NIST_EDWARDS25519') throw new Error(`KMS key ${this.keyId} is not an ECC_NIST_EDWARDS25519 key`);
    return getAddressDecoder().decode(PublicKey.subarray(PublicKey.length - ED25519_PUBLIC_KEY_BYTES));
  }
}

/**
 * The hot wallet as kit's signer of transactions, for a transaction's fee payer: kit hands it the
 * compiled message and puts the signature in the transaction's slot for the wallet. Each signature
 * is checked against the wallet's public key before it is used: a KMS key that is not the wallet's
 * would otherwise give transactions every node refuses, stored as payouts that never land.
 */
export async function asTransactionSigner(signer: SolanaSigner): Promise<TransactionPartialSigner> {
  const wallet = (await signer.address()) as Address;
  const publicKey = await getPublicKeyFromAddress(wallet);
  return {
    address: wallet,
    signTransactions: (transactions) =>
      Promise.all(
        transactions.map(async (transaction): Promise<SignatureDictionary> => {
          const signature = signatureBytes(await signer.signMessage(new Uint8Array(transaction.messageBytes)));
          if (!(await verifySignature(publicKey, signature, transaction.messageBytes))) throw new Error(`The hot wallet's signature does not verify against its address ${wallet}`);
          return Object.freeze({ [wallet]: signature });
        }),
      ),
  };
}

/**
 * The stage's Solana hot wallet: its KMS key where the stack names one (SOLANA_SIGNER_KMS_KEY_ID,
 * made ECC_NIST_EDWARDS25519 by lib/chain-jobs.ts), else SOLANA's `localHotWalletKey` (the local
 * stage).
 */
export function solanaSignerFrom(settings: { SOLANA?: SolanaNetworkSettings; SOLANA_SIGNER_KMS_KEY_ID?: string }): SolanaSigner {
  if (settings.SOLANA_SIGNER_KMS_KEY_ID) return new KmsSolanaSigner(settings.SOLANA_SIGNER_KMS_KEY_ID);
  const solana = needed(settings.SOLANA, 'SOLANA', 'Solana is open');
  return localSolanaSigner(needed(solana.localHotWalletKey, 'SOLANA', 'no SOLANA_SIGNER_KMS_KEY_ID: SOLANA.localHotWalletKey signs'));
}
