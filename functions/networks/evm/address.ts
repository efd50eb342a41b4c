import type { AddressFormat } from '../network.ts';
import { EVM_ADDRESS_PATTERN } from './address-pattern.ts';
import { isEvmAddress, toChecksumAddress } from './evm-address.ts';
import { isReservedAccount } from '../reserved-accounts.ts';

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
  // The zero address, 0x…dEaD, the precompiles and system contracts: ../reserved-accounts.ts.
  isUnspendable: (canonical) => isReservedAccount(canonical.slice(2).toLowerCase()),
};
