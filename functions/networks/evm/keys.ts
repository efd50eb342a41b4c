import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Address } from 'viem';
import { bytesToHex } from '@noble/hashes/utils.js';
import { keccakHex, toChecksumAddress } from './evm-address.ts';
import type { NetworkKeys } from '../network.ts';
import { depositForwarderAddress, depositSalt } from './forwarder-address.ts';
import type { EvmNetworkName } from './settings.ts';

/** An EVM network's keys: a deposit is paid at its forwarder's CREATE2 address
 * (./forwarder-address.ts), open only on a stage whose EVM_NETWORKS names the network. */
export const evmKeys = (name: EvmNetworkName): NetworkKeys => ({
  depositTerms: (deposit, settings) => {
    const network = settings.EVM_NETWORKS[name];
    if (!network) return null;
    const address = depositForwarderAddress({
      factory: network.forwarderFactory as Address,
      implementation: network.forwarderImplementation as Address,
      salt: depositSalt(deposit.id),
    });
    return { address, requiredConfirmations: network.confirmations };
  },
  addressFromPublicKey: evmAddressFromPublicKey,
});

/** The last 20 bytes of the keccak-256 of the uncompressed key, EIP-55 checksummed. */
export function evmAddressFromPublicKey(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return toChecksumAddress(`0x${keccakHex(bytesToHex(uncompressed.subarray(1))).slice(-40)}`);
}
