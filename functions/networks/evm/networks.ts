import type { Network } from '../network.ts';
import { explorerTransactionUrl, NETWORK_DISPLAY } from '../display.ts';
import { evmAddressFormat } from './address.ts';
import type { TokenControlsKind } from './settings.ts';

/**
 * The EVM networks as the network port describes them (../shared/networks.md). USDT has 6 decimals
 * on each but BNB Smart Chain, where it has 18. Fees are paid in each chain's own coin, 18
 * decimals (wei). When a block is final differs: the stage's settings choose the rule each chain's
 * reader follows (functions/networks/evm/settings.ts); `finality` says it for people.
 */
type EvmNetworkFacts = { blockMs: number; chainId: number; tokenControls: TokenControlsKind };
const evmNetwork = (network: Omit<Network, 'title' | 'address' | 'explorerTransactionUrl'> & EvmNetworkFacts): Network & EvmNetworkFacts => ({
  ...network,
  title: NETWORK_DISPLAY[network.name].title,
  address: evmAddressFormat,
  explorerTransactionUrl: (txHash) => explorerTransactionUrl(network.name, txHash),
});

export const ethereum = evmNetwork({
  name: 'ethereum',
  tokenControls: 'tether',
  chainId: 1,
  tokenDecimals: 6,
  feeAsset: { symbol: 'ETH', decimals: 18 },
  finality: "finalized: two epochs of the beacon chain's validators have attested to it (about 13 minutes)",
  blockMs: 12_000,
});

export const bsc = evmNetwork({
  name: 'bsc',
  tokenControls: 'none',
  chainId: 56,
  tokenDecimals: 18,
  feeAsset: { symbol: 'BNB', decimals: 18 },
  finality: 'finalized: fast finality, once two thirds of the validators have voted for it (a few seconds)',
  blockMs: 750,
});

export const polygon = evmNetwork({
  name: 'polygon',
  tokenControls: 'tether',
  chainId: 137,
  tokenDecimals: 6,
  feeAsset: { symbol: 'POL', decimals: 18 },
  finality: "finalized: a milestone of Polygon's validators includes it (a few seconds)",
  blockMs: 2_000,
});

export const arbitrum = evmNetwork({
  name: 'arbitrum',
  tokenControls: 'tether',
  chainId: 42161,
  tokenDecimals: 6,
  feeAsset: { symbol: 'ETH', decimals: 18 },
  finality: 'finalized: the batch holding it is final on Ethereum (about 20 minutes)',
  blockMs: 250,
});

/** With each chain's id on its main network (../shared/networks.md: what its local node answers, and
 * what npm run evm:deploy-factory expects), its usual time between blocks (`blockMs`: the
 * scan-lag alarm's threshold is ten minutes of blocks) and its USDT's issuer controls
 * (`tokenControls`, settings.ts TOKEN_CONTROLS: TetherToken's on Ethereum, and on Polygon and
 * Arbitrum as the local chains run them; none on BSC, whose BEP20USDT has no freeze, pause or fee).
 * A stage's EVM_NETWORKS may say otherwise per network. */
export const EVM_NETWORKS = { ethereum, bsc, polygon, arbitrum } as const;
