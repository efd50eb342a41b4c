import { importScreeningFile, readScreeningFile, ScreeningImportRefused, type ImportSummary, type ScreeningFile, type ScreeningStore } from './screening-import.ts';

/**
 * The screening refresh job (README, Screening): once a day it downloads OFAC's sdn_advanced.xml
 * from the stage's SCREENING_LIST_URL and imports it; every hour it reports the list's age, the
 * time since OFAC's whole list was last imported, which the ScreeningListAge alarm watches (over 48
 * hours: two daily downloads missed). A failed download is reported, not thrown: the list in the
 * table still holds, and the age keeps growing until one succeeds. A stage that has never imported
 * the list downloads at its first run, whatever the schedule; so does every run after a failed
 * attempt (recorded with the list, cleared by the next whole import), so a download OFAC failed at
 * 05:30 is tried again within the hour, not the next day. An attempt is recorded as failed before
 * it downloads: a run Lambda ends (past its timeout, out of memory) catches nothing and records
 * nothing after, and Lambda does not retry a scheduled run that timed out. A recorded attempt
 * younger than the run's timeout may still be under way: an hourly run leaves it be.
 */

/** The job's Lambda timeout (lib/cambio-stack.ts screeningRefreshJob): an attempt recorded longer
 * ago than this has ended, whatever it recorded. */
export const SCREENING_REFRESH_TIMEOUT_MS = 5 * 60_000;

/** Why an attempt is recorded before it downloads; a failure caught or a whole import replaces it. */
export const ATTEMPT_UNFINISHED = 'the refresh did not finish (its run timed out or ran out of memory)';

/** The age reported while OFAC's list has never been imported: past any threshold. */
export const NEVER_SYNCED_AGE_HOURS = 100_000;

export interface RefreshOutcome {
  refreshed: boolean;
  summary: ImportSummary | null;
  /** Why the download or the import failed, when it did. */
  failure: string | null;
  /** What the file listed for a screened asset that is no address of its networks (a TRON address
   * written in hex, a typo): never stored, so not screened, and worth a person's look. */
  invalid: ScreeningFile['invalid'];
  /** Hours since OFAC's list was last imported. */
  ageHours: number;
}

export async function refreshScreeningList(
  store: ScreeningStore,
  source: { url: string; download: () => Promise<AsyncIterable<Uint8Array>> },
  options: { refresh: boolean; actor: string; now?: () => Date },
): Promise<RefreshOutcome> {
  const now = options.now ?? (() => new Date());
  const before = await store.state();
  const attempted = before.lastRefreshFailure === null ? null : Date.parse(before.lastRefreshFailure.at);
  const refresh = options.refresh || before.ofacSyncedAt === null || (attempted !== null && now().getTime() - attempted >= SCREENING_REFRESH_TIMEOUT_MS);
  let summary: ImportSummary | null = null;
  let failure: string | null = null;
  let invalid: ScreeningFile['invalid'] = [];
  if (refresh) {
    await store.recordRefreshFailure({ at: now().toISOString(), from: source.url, failure: ATTEMPT_UNFINISHED });
    try {
      const file = await readScreeningFile(await source.download());
      if (file.format !== 'sdn_advanced') throw new ScreeningImportRefused(`${source.url} did not serve an XML document (OFAC's sdn_advanced.xml)`);
      summary = await importScreeningFile(store, file, { from: source.url, actor: options.actor, now: now() });
      invalid = file.invalid;
    } catch (error) {
      failure = `${(error as Error).name}: ${(error as Error).message}`;
      await store.recordRefreshFailure({ at: now().toISOString(), from: source.url, failure });
    }
  }
  const syncedAt = summary ? summary.at : before.ofacSyncedAt;
  const ageHours = syncedAt === null ? NEVER_SYNCED_AGE_HOURS : Math.max(0, (now().getTime() - Date.parse(syncedAt)) / 3_600_000);
  return { refreshed: summary !== null, summary, failure, invalid, ageHours };
}
