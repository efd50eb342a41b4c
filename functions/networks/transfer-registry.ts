import type { NetworkTransfers } from './network.ts';
import type { HOT_WALLET_NETWORK } from './names.ts';
import { tronTransfers } from './tron/tron-transfer-builder.ts';

/** TRON's transfer building, for its signing jobs (withdrawal sender, sweeper) alone: its transaction
 * library is large (tronweb: ~1.2 MB, ../shared/tron-notes.md). The EVM networks sign through viem
 * (functions/networks/evm/evm-payouts.ts). */
const TRANSFERS: { readonly [N in typeof HOT_WALLET_NETWORK]: NetworkTransfers } = { tron: tronTransfers };

export const transfersOf = (name: typeof HOT_WALLET_NETWORK): NetworkTransfers => TRANSFERS[name];
