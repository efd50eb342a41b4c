import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { refreshScreeningList } from '#functions/screening/screening-refresh';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { downloadStream } from '#adapters/http/file-download';
import { dynamoFrom } from '#adapters/runtime';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';
import { needed } from '#functions/settings/schema';

const settings = functionSettings('jobs/screening-refresh');
const { db, tableName } = dynamoFrom(settings);
const store = new DynamoScreeningStore(db, tableName);
const url = needed(settings.SCREENING_LIST_URL, 'SCREENING_LIST_URL', 'the screening refresh job downloads the list from it');
/** OFAC's file is ~100 MB: minutes on a slow day, within the function's timeout. */
const DOWNLOAD_TIMEOUT_MS = 240_000;

/**
 * The screening refresh (functions/screening/screening-refresh.ts): `{"refresh": true}` (the daily
 * schedule) downloads and imports OFAC's list, as does an hourly run while the last attempt failed;
 * any run publishes ScreeningListAgeHours, which the ScreeningListAge alarm watches, and one that
 * downloaded ScreeningRefreshFailed (1 when the download or import failed: logged at ERROR with the
 * cause, the list in the table left as it was), which the ScreeningRefreshFailed alarm watches. An
 * entry of a screened asset that is no address of its networks is logged at WARN, each one.
 */
export const handler = middy().handler(async (event: unknown, context: Context) =>
  runJob('screening refresh', context, async ({ log, metrics }) => {
    const outcome = await refreshScreeningList(
      store,
      { url, download: () => downloadStream(url, { timeoutMs: DOWNLOAD_TIMEOUT_MS, userAgent: 'Cambio screening refresh' }) },
      { refresh: (event as { refresh?: unknown } | null)?.refresh === true, actor: 'job:screening-refresh' },
    );
    metrics.addMetric('ScreeningListAgeHours', MetricUnit.Count, outcome.ageHours);
    if (outcome.refreshed || outcome.failure) metrics.addMetric('ScreeningRefreshFailed', MetricUnit.Count, outcome.failure ? 1 : 0);
    if (outcome.failure) log.error('screening list not refreshed', { url, failure: outcome.failure, ageHours: outcome.ageHours });
    if (outcome.invalid.length > 0) log.warn("OFAC's list names addresses that are none of their networks': not screened", { url, invalid: outcome.invalid });
    return outcome;
  }),
);
