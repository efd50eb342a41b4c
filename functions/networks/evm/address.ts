import type { AddressFormat } from '../network.ts';
import { EVM_ADDRESS_PATTERN } from './address-pattern.ts';
import { isEvmAddress, toChecksumAddress } from './evm-address.ts';

/**
 * EVM addresses as every EVM network writes them: 20 bytes of hex after 0x, with EIP-55's checksum
 * in the letters' case when they are mixed (all lower or all upper case carries none, and is taken
 * as it is). A mixed-case address whose checksum fails is a typo caught before money goes to it.
 */
export const evmAddressFormat: AddressFormat = {
  pattern: EVM_ADDRESS_PATTERN.source,
  form: 'EIP-55 0x followed by 40 hex digits',
  example: '0x52908400098527886E0F7030069857D2E4169EE7',
  is: isEvmAddress,
  canonical: (value) => (EVM_ADDRESS_PATTERN.test(value) ? toChecksumAddress(value) : null),
  account: (value) => (EVM_ADDRESS_PATTERN.test(value) ? value.slice(2).toLowerCase() : null),
  ofAccount: (account) => (/^[0-9a-f]{40}$/.test(account) ? toChecksumAddress(`0x${account}`) : null),
  isUnspendable: (canonical) => UNSPENDABLE.has(canonical.toLowerCase()),
};

/**
 * Where no one can spend from: the zero address (nobody holds its key), 0x…dEaD (the burn address by
 * convention), and the precompiles 0x…01–0x…0a (ecrecover, sha256, …, the point evaluation of
 * EIP-4844): code of the chain itself, which accepts a token balance and can never move it.
 */
const UNSPENDABLE = new Set([0, 0xdead, ...Array.from({ length: 10 }, (_, i) => i + 1)].map((n) => `0x${n.toString(16).padStart(40, '0')}`));
