import type { NetworkName } from '../networks/names.ts';

/**
 * The sanctions screening list (OFAC SDN digital-currency addresses plus a stage's own entries),
 * as the API and the chain jobs ask it. Comparison is by canonical address (EVM case-insensitive).
 * Over the table: adapters/dynamo/screening-store.ts (`screeningListOf(db, tableName)`, cached per
 * container within the list's version); filled by ./screening-import.ts; README "Screening".
 */
export interface ScreeningList {
  /** Those of `addresses` on the list for `network`, in the form given. */
  listed(network: NetworkName, addresses: string[]): Promise<Set<string>>;
}
