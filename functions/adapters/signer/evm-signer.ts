import { bytesToHex, hexToBytes, keccak256, serializeTransaction, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmTransactionSigner } from '#functions/networks/evm/evm-payouts';
import type { TransactionSigner } from '#functions/networks/signer';
import type { EvmNetworkName } from '#functions/networks/names';
import type { SliceSettings } from '#functions/settings/functions';
import { needed } from '#functions/settings/schema';
import { signerFrom } from './from-settings.ts';

/** The local runtime's hot wallet on an EVM network: a key in memory, signing through viem. */
export function localEvmSigner(privateKeyHex: string): EvmTransactionSigner {
  const account = privateKeyToAccount(`0x${privateKeyHex.replace(/^0x/, '')}`);
  return { address: async () => account.address, signTransaction: (transaction) => account.signTransaction(transaction) };
}

/**
 * An EVM signer over a key that signs digests (KMS, Secrets Manager: ./kms-signer.ts): viem
 * serializes the transaction and its hash is signed; the signature's recovery id (27 or 28) becomes
 * the EIP-1559 y-parity, or a legacy transaction's EIP-155 `v` (viem adds the chain id). The sender
 * checks that the result recovers to the wallet before storing it.
 */
export function digestEvmSigner(signer: TransactionSigner): EvmTransactionSigner {
  return {
    address: async () => (await signer.address()) as Address,
    signTransaction: async (transaction) => {
      const signature = await signer.signTransactionId(hexToBytes(keccak256(serializeTransaction(transaction))));
      const r = bytesToHex(signature.subarray(0, 32));
      const s = bytesToHex(signature.subarray(32, 64));
      return serializeTransaction(transaction, { r, s, v: BigInt(signature[64]!), yParity: signature[64]! - 27 });
    },
  };
}

/** The stage's hot wallet on an EVM network (config/stages.ts SIGNER): the local key signs through
 * viem; a KMS or Secrets Manager key through its digest signer, with the network's address form. */
export function evmSignerFrom(settings: SliceSettings<'hotWallet'>, network: EvmNetworkName): EvmTransactionSigner {
  if (settings.SIGNER === 'local') return localEvmSigner(needed(settings.LOCAL_HOT_WALLET_KEY, 'LOCAL_HOT_WALLET_KEY', 'SIGNER=local'));
  return digestEvmSigner(signerFrom(settings, network));
}
