import type { Network } from '../network.ts';
import { BASE58_ADDRESS_PATTERN } from './address-pattern.ts';
import { deriveDepositAddress, isTronAddress, tronAddressFromPublicKey } from './tron-address.ts';

/** TRON as the network port describes it (../shared/tron-notes.md): USDT is the TRC-20 contract
 * with 6 decimals, fees are paid in TRX (1 TRX = 1 000 000 sun), and a block is final once
 * solidified, when 19 of the 27 producers have built on it. */
export const tron: Network = {
  name: 'tron',
  title: 'TRON',
  tokenDecimals: 6,
  feeAsset: { symbol: 'TRX', decimals: 6 },
  finality: 'solidified: 19 of the 27 block producers have built on the block (about a minute)',
  address: {
    pattern: BASE58_ADDRESS_PATTERN.source,
    form: 'base58check, starting with T',
    example: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui',
    is: isTronAddress,
    fromPublicKey: tronAddressFromPublicKey,
  },
  deriveDepositAddress,
  explorerTransactionUrl: (txHash) => `https://tronscan.org/#/transaction/${txHash}`,
};
