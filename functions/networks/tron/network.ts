import type { AddressFormat, Network, NetworkKeys } from '../network.ts';
import { withDisplay } from '../display.ts';
import { isReservedAccount } from '../reserved-accounts.ts';
import { BASE58_ADDRESS_PATTERN } from './address-pattern.ts';
import { deriveDepositAddress, isTronAddress, tronAddressFromHex, tronAddressFromPublicKey, tronAddressToHex } from './tron-address.ts';

/** How TRON writes an address: base58check of 0x41 and the account's 20 bytes. */
const tronAddressFormat: AddressFormat = {
  // A getter: a property read at module load would keep this object (and the curve and HD-key
  // code it names) in bundles that never use it, as esbuild cannot prove the read pure.
  get pattern() {
    return BASE58_ADDRESS_PATTERN.source;
  },
  form: 'base58check, starting with T',
  example: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui',
  is: isTronAddress,
  // Base58 is case-sensitive: a valid address is already in its one form.
  canonical: (value) => (isTronAddress(value) ? value : null),
  // The 21 bytes after base58check's decoding are 0x41 and the account's 20.
  account: (value) => (isTronAddress(value) ? tronAddressToHex(value).slice(2) : null),
  ofAccount: (account) => (/^[0-9a-f]{40}$/.test(account) ? tronAddressFromHex(`0x${account}`) : null),
  // TRON's zero address, its precompiles, and what the EVM chains reserve: ../reserved-accounts.ts.
  isUnspendable: (canonical) => isTronAddress(canonical) && isReservedAccount(tronAddressToHex(canonical).slice(2)),
};

/** TRON as the network port describes it (../shared/tron-notes.md): USDT is the TRC-20 contract
 * with 6 decimals, fees are paid in TRX (1 TRX = 1 000 000 sun), and a block is final once
 * solidified, when 19 of the 27 producers have built on it. */
export const tron: Network = withDisplay({
  name: 'tron',
  tokenDecimals: 6,
  feeAsset: { symbol: 'TRX', decimals: 6 },
  blockMs: 3000,
  finality: 'solidified: 19 of the 27 block producers have built on the block (about a minute)',
  address: tronAddressFormat,
});

/** TRON's keys: BIP44 coin type 195 (m/44'/195'/0'/0/i), addresses from keccak-256 of the key.
 * TRON is open on every stage. */
export const tronKeys: NetworkKeys = {
  depositTerms: (deposit, settings) => ({
    address: deriveDepositAddress(settings.DEPOSIT_ACCOUNT_XPUB, deposit.addressIndex),
    requiredConfirmations: settings.DEPOSIT_REQUIRED_CONFIRMATIONS,
  }),
  addressFromPublicKey: tronAddressFromPublicKey,
};
