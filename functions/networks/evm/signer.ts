import {
  bytesToHex,
  hexToBytes,
  keccak256,
  serializeTransaction,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
  type TransactionSerializableLegacy,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmTransactionSigner } from './evm-payouts.ts';
import { evmAddressFromPublicKey } from './keys.ts';
import type { TransactionSigner } from '#functions/networks/signer';
import type { EvmNetworkName } from '#functions/networks/names';
import type { SliceSettings } from '#functions/settings/functions';
import { needed } from '#functions/settings/schema';
import { signerFrom } from '../../adapters/signer/from-settings.ts';
import { KmsSigner } from '../../adapters/signer/kms-signer.ts';

/** The hot wallet's signer as made here: EIP-1559 transactions, as the sender asks
 * (EvmTransactionSigner), and legacy ones with their chain id (EIP-155). */
export interface EvmSigner extends EvmTransactionSigner {
  signTransaction(transaction: TransactionSerializableEIP1559 | TransactionSerializableLegacy): Promise<Hex>;
}

/** The local runtime's hot wallet on an EVM network: a key in memory, signing through viem. */
export function localEvmSigner(privateKeyHex: string): EvmSigner {
  const account = privateKeyToAccount(`0x${privateKeyHex.replace(/^0x/, '')}`);
  return { address: async () => account.address, signTransaction: (transaction) => account.signTransaction(transaction) };
}

/**
 * An EVM signer over a key that signs digests (KMS, Secrets Manager: ./kms-signer.ts): viem
 * serializes the unsigned transaction (a legacy one with its chain id, EIP-155) and the keccak-256
 * of that is signed as is, low S, recovery id found against the key. viem's serializer then turns
 * the recovery id into the transaction's v: the y-parity of a typed transaction, chainId × 2 + 35 +
 * recovery id of a legacy one. The sender checks that the result recovers to the wallet and names
 * the node's chain before storing it (functions/networks/evm/evm-payouts.ts).
 */
export function digestEvmSigner(signer: TransactionSigner): EvmSigner {
  return {
    address: async () => (await signer.address()) as Address,
    signTransaction: async (transaction) => {
      const signature = await signer.signTransactionId(hexToBytes(keccak256(serializeTransaction(transaction))));
      const recovery = signature[64]! - 27;
      const r = bytesToHex(signature.subarray(0, 32));
      const s = bytesToHex(signature.subarray(32, 64));
      return serializeTransaction(transaction, { r, s, v: BigInt(27 + recovery), yParity: recovery });
    },
  };
}

/**
 * The stage's hot wallet on an EVM network (config/stages.ts SIGNER): the local key signs through
 * viem; with KMS, the network's own ECC_SECG_P256K1 key (EVM_SIGNER_KMS_KEY_IDS, one per open
 * network: lib/cambio-stack.ts), its address the keccak of its public key; a Secrets Manager key
 * through its digest signer, in the network's address form.
 */
export function evmSignerFrom(settings: SliceSettings<'hotWallet'>, network: EvmNetworkName): EvmSigner {
  if (settings.SIGNER === 'local') return localEvmSigner(needed(settings.LOCAL_HOT_WALLET_KEY, 'LOCAL_HOT_WALLET_KEY', 'SIGNER=local'));
  if (settings.SIGNER === 'kms') {
    const keyId = needed(settings.EVM_SIGNER_KMS_KEY_IDS[network], 'EVM_SIGNER_KMS_KEY_IDS', `SIGNER=kms on ${network}`);
    return digestEvmSigner(new KmsSigner(keyId, undefined, evmAddressFromPublicKey));
  }
  return digestEvmSigner(signerFrom(settings, network));
}
