import type { NetworkChains } from './network.ts';
import type { NetworkName } from './names.ts';
import { tronChains } from './tron/from-settings.ts';
import { evmChains } from './evm/from-settings.ts';
import { solanaChains } from './solana/from-settings.ts';

/** Each registered network's chain (reading, broadcasting, balances), for the chain jobs. Apart
 * from registry.ts so that the API functions do not bundle any network's chain client. */
const CHAINS: { readonly [N in NetworkName]: NetworkChains } = {
  tron: tronChains,
  ethereum: evmChains('ethereum'),
  bsc: evmChains('bsc'),
  polygon: evmChains('polygon'),
  arbitrum: evmChains('arbitrum'),
  solana: solanaChains,
};

export const chainsOf = (name: NetworkName): NetworkChains => CHAINS[name];
