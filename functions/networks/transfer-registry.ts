import type { NetworkTransfers } from './network.ts';
import type { PayoutNetworkName } from './names.ts';
import { tronTransfers } from './tron/tron-transfer-builder.ts';

/** Each registered network's transfer building, for the signing jobs (withdrawal sender, sweeper)
 * alone: a network's transaction library can be large (tronweb: ~1.2 MB, ../shared/tron-notes.md). */
const TRANSFERS: { readonly [N in PayoutNetworkName]: NetworkTransfers } = { tron: tronTransfers };

export const transfersOf = (name: PayoutNetworkName): NetworkTransfers => TRANSFERS[name];
