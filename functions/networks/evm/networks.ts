import type { Network } from '../network.ts';
import { evmAddressFormat } from './address.ts';

/**
 * The EVM networks as the network port describes them (../shared/networks.md). USDT has 6 decimals
 * on each but BNB Smart Chain, where it has 18. Fees are paid in each chain's own coin, 18
 * decimals (wei). When a block is final differs: the stage's settings choose the rule each chain's
 * reader follows (functions/networks/evm/settings.ts); `finality` says it for people.
 */
const evmNetwork = (network: Omit<Network, 'address' | 'explorerTransactionUrl'> & { explorer: string; blockMs: number }): Network & { blockMs: number } => ({
  name: network.name,
  title: network.title,
  tokenDecimals: network.tokenDecimals,
  feeAsset: network.feeAsset,
  finality: network.finality,
  address: evmAddressFormat,
  explorerTransactionUrl: (txHash) => `${network.explorer}/tx/${txHash}`,
  blockMs: network.blockMs,
});

export const ethereum = evmNetwork({
  name: 'ethereum',
  title: 'Ethereum',
  tokenDecimals: 6,
  feeAsset: { symbol: 'ETH', decimals: 18 },
  finality: "finalized: two epochs of the beacon chain's validators have attested to it (about 13 minutes)",
  explorer: 'https://etherscan.io',
  blockMs: 12_000,
});

export const bsc = evmNetwork({
  name: 'bsc',
  title: 'BNB Smart Chain',
  tokenDecimals: 18,
  feeAsset: { symbol: 'BNB', decimals: 18 },
  finality: 'finalized: fast finality, once two thirds of the validators have voted for it (a few seconds)',
  explorer: 'https://bscscan.com',
  blockMs: 750,
});

export const polygon = evmNetwork({
  name: 'polygon',
  title: 'Polygon PoS',
  tokenDecimals: 6,
  feeAsset: { symbol: 'POL', decimals: 18 },
  finality: "finalized: a milestone of Polygon's validators includes it (a few seconds)",
  explorer: 'https://polygonscan.com',
  blockMs: 2_000,
});

export const arbitrum = evmNetwork({
  name: 'arbitrum',
  title: 'Arbitrum One',
  tokenDecimals: 6,
  feeAsset: { symbol: 'ETH', decimals: 18 },
  finality: 'finalized: the batch holding it is final on Ethereum (about 20 minutes)',
  explorer: 'https://arbiscan.io',
  blockMs: 250,
});

/** With each chain's usual time between blocks (`blockMs`): the scan-lag alarm's threshold is ten
 * minutes of blocks. */
export const EVM_NETWORKS = { ethereum, bsc, polygon, arbitrum } as const;
