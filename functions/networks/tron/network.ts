import type { Network, NetworkKeys } from '../network.ts';
import { explorerTransactionUrl, NETWORK_DISPLAY } from '../display.ts';
import { BASE58_ADDRESS_PATTERN } from './address-pattern.ts';
import { deriveDepositAddress, isTronAddress, tronAddressFromPublicKey } from './tron-address.ts';

/** TRON as the network port describes it (../shared/tron-notes.md): USDT is the TRC-20 contract
 * with 6 decimals, fees are paid in TRX (1 TRX = 1 000 000 sun), and a block is final once
 * solidified, when 19 of the 27 producers have built on it. */
export const tron: Network = {
  name: 'tron',
  // A getter, as `pattern` below is.
  get title() {
    return NETWORK_DISPLAY.tron.title;
  },
  tokenDecimals: 6,
  feeAsset: { symbol: 'TRX', decimals: 6 },
  finality: 'solidified: 19 of the 27 block producers have built on the block (about a minute)',
  address: {
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
  },
  explorerTransactionUrl: (txHash) => explorerTransactionUrl('tron', txHash),
};

/** TRON's keys: BIP44 coin type 195 (m/44'/195'/0'/0/i), addresses from keccak-256 of the key.
 * TRON is open on every stage. */
export const tronKeys: NetworkKeys = {
  depositTerms: (deposit, settings) => ({
    address: deriveDepositAddress(settings.DEPOSIT_ACCOUNT_XPUB, deposit.addressIndex),
    requiredConfirmations: settings.DEPOSIT_REQUIRED_CONFIRMATIONS,
  }),
  addressFromPublicKey: tronAddressFromPublicKey,
};
