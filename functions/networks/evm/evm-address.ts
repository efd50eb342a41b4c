import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { EVM_ADDRESS_PATTERN } from './address-pattern.ts';

/**
 * EIP-55 and CREATE2 for the API functions, on the keccak the TRON code already bundles: viem's
 * helpers bring its error and encoding machinery with them (~50 KB with the source map), which
 * put deposit creation over its 300 KB cold-start budget, as tronweb would TRON's
 * (./../tron/tron-address.ts). The chain jobs use viem; test/integration/evm-forwarder.test.ts and
 * test/unit/evm-address.test.ts hold these to viem's answers and the factory's own predictAddress.
 */

/** The address with EIP-55's checksum: a letter is upper case where the keccak of the lower-case
 * hex has a nibble of 8 or more. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/** 0x and 40 hex digits, whose letters are all one case or carry a valid EIP-55 checksum. The zero
 * address is one: well formed, and refused as a destination for what it is, unspendable
 * (functions/withdrawals/refused-destinations.ts). */
/** EVM addresses compare in any letter case: a log's address comes in lower case, a stored one EIP-55. */
export const sameEvmAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !EVM_ADDRESS_PATTERN.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return toChecksumAddress(value) === value;
}

/** keccak-256 of bytes given as hex, as 0x hex. */
export const keccakHex = (hex: string): string => `0x${bytesToHex(keccak_256(hexToBytes(hex.replace(/^0x/, ''))))}`;

/** keccak-256 of a string's UTF-8 bytes, as 0x hex. */
export const keccakOfText = (text: string): string => `0x${bytesToHex(keccak_256(utf8ToBytes(text)))}`;

/** The address CREATE2 gives: the last 20 bytes of keccak(0xff ‖ deployer ‖ salt ‖ keccak(init code)), checksummed. */
export function create2Address(deployer: string, salt: string, initCode: string): string {
  const hash = keccakHex(`ff${deployer.slice(2)}${salt.slice(2)}${keccakHex(initCode).slice(2)}`);
  return toChecksumAddress(`0x${hash.slice(-40)}`);
}
