import type { NetworkName } from '#functions/networks/names';
import type { ScreeningEntry } from '#functions/screening/screening';
import type { ImportSummary, RefreshFailure, ScreeningListState } from '#functions/screening/screening-import';
import { listLoaded } from '#functions/screening/screening-list';
import type { Item } from './item.ts';

/**
 * The one owner of the screening list's items (docs/data-model.md): a `ScreeningEntry` per network
 * and canonical address, in the network's partition, so one query reads a network's list and one
 * BatchGet what a payout checks; and the list's own `ScreeningList` record, whose `version` the
 * lookups' cache goes by (adapters/dynamo/screening-store.ts), whose `lastImport` says the list was
 * ever loaded, and whose `lastRefreshFailure` the refresh job retries by.
 *
 * An entry is listed while it has `ofac` or `stage`. Neither is ever deleted: a delisting removes
 * `ofac` (and notes `ofacDelistedAt`), a stage's removal `stage` (`stageRemovedAt`), so the jobs that
 * write them need no DeleteItem and the item says when it stopped being listed.
 */
export const screeningEntryItem = {
  type: 'ScreeningEntry',
  key: (network: NetworkName, address: string) => ({ PK: `SCREENING#${network}`, SK: `ADDRESS#${address}` }),
  ofNetwork: (network: NetworkName) => ({ PK: `SCREENING#${network}`, skPrefix: 'ADDRESS#' }),
  /** The fields every write sets, so an update makes the item whole whether it existed or not. */
  head: (network: NetworkName, address: string) => ({ type: screeningEntryItem.type, network, address }),
  fromItem: (item: Item): ScreeningEntry => ({
    network: item.network as NetworkName,
    address: item.address as string,
    ofac: (item.ofac as ScreeningEntry['ofac'] | undefined) ?? null,
    stage: (item.stage as ScreeningEntry['stage'] | undefined) ?? null,
  }),
};

export const screeningListItem = {
  type: 'ScreeningList',
  key: () => ({ PK: 'SCREENING', SK: 'LIST' }),
  /** An empty table's list: version 0, nothing imported. */
  fromItem: (item: Item | null): ScreeningListState => ({
    version: Number(item?.version ?? 0),
    changedAt: (item?.changedAt as string | undefined) ?? null,
    ofacSyncedAt: (item?.ofacSyncedAt as string | undefined) ?? null,
    ofacFrom: (item?.ofacFrom as string | undefined) ?? null,
    ofacIssuedOn: (item?.ofacIssuedOn as string | undefined) ?? null,
    ofacEntries: Object.fromEntries(Object.entries((item?.ofacEntries as Record<string, unknown> | undefined) ?? {}).map(([network, count]) => [network, Number(count)])),
    stageEntries: Number(item?.stageEntries ?? 0),
    importStartedAt: (item?.importStartedAt as string | undefined) ?? null,
    lastImport: (item?.lastImport as ImportSummary | undefined) ?? null,
    lastRefreshFailure: (item?.lastRefreshFailure as RefreshFailure | undefined) ?? null,
  }),
  versionOf: (item: Item | null | undefined): number => Number(item?.version ?? 0),
  /** Whether the lookups may answer from the list (listLoaded). */
  loadedOf: (item: Item | null | undefined): boolean => listLoaded({ lastImport: (item?.lastImport as ImportSummary | undefined) ?? null }),
};
