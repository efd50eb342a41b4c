import type { NetworkHotWallet } from './network.ts';
import type { NetworkName } from './names.ts';
import { tronHotWallet } from './tron/hot-wallet.ts';
import { evmHotWallet } from './evm/hot-wallet.ts';
import { solanaHotWallet } from './solana/hot-wallet.ts';

/** Each registered network's hot wallet address from the function's settings, for reconcile alone
 * (functions/handlers/jobs/reconcile.ts): it reads the keys and cannot sign. */
const HOT_WALLETS: { readonly [N in NetworkName]: NetworkHotWallet } = {
  tron: tronHotWallet,
  ethereum: evmHotWallet('ethereum'),
  bsc: evmHotWallet('bsc'),
  polygon: evmHotWallet('polygon'),
  arbitrum: evmHotWallet('arbitrum'),
  solana: solanaHotWallet,
};

export const hotWalletOf = (name: NetworkName): NetworkHotWallet => HOT_WALLETS[name];
