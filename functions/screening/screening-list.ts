import type { NetworkName } from '../networks/names.ts';

/**
 * The sanctions screening list (OFAC SDN digital-currency addresses plus a stage's own entries),
 * as the API and the chain jobs ask it. Comparison is by canonical address (EVM case-insensitive).
 * Over the table: adapters/dynamo/screening-store.ts (`screeningListOf(db, tableName)`, cached per
 * container within the list's version); filled by ./screening-import.ts; README "Screening".
 */
export interface ScreeningList {
  /** Those of `addresses` on the list for `network`, in the form given. `fresh`: read now, not from
   * what the container learnt under the list's version (a payout about to be signed). Throws
   * ScreeningListNotLoaded while the list has never been loaded. */
  listed(network: NetworkName, addresses: string[], options?: { fresh?: boolean }): Promise<Set<string>>;
}

/**
 * The list has never been loaded (no import of OFAC's list yet: a new stage before the screening
 * refresh job's first run, or one whose downloads keep failing). An address missing from an empty
 * list says nothing of it, so nothing is answered: money waits rather than leave, or be credited,
 * unscreened.
 */
export class ScreeningListNotLoaded extends Error {
  override name = 'ScreeningListNotLoaded';
}

/** Loaded once an import of OFAC's addresses has completed (each writes `lastImport`): OFAC's whole
 * list (the refresh job, `npm run screening:import` of sdn_advanced.xml) or a plain list of them
 * (the shipped snapshot that `npm start` and the tests load). A stage's own entries alone are not. */
export const listLoaded = (state: { lastImport: object | null }): boolean => state.lastImport !== null;
