import { createReadStream } from 'node:fs';
import { basename, join } from 'node:path';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { combinedPlainLists, importScreeningFile, readScreeningFile, type ImportSummary } from '#functions/screening/screening-import';

const PROJECT = join(import.meta.dirname, '..');

/** The OFAC snapshot the project ships (config/screening/README.md): screening is on from the first `npm start`. */
export const DEFAULT_SCREENING_LISTS = ['config/screening/sanctioned_TRX.txt', 'config/screening/sanctioned_ETH_sample.txt'].map((file) => join(PROJECT, file));

/**
 * Loads the shipped lists into a local table (`npm start`, the test harness), as `npm run
 * screening:import` would, both in one import. Idempotent: on a table that holds them already it
 * reads the list and writes nothing, so a restart costs a few queries. A table into which OFAC's
 * whole list was imported (`npm run screening:import -- --file sdn_advanced.xml`) keeps that one:
 * the snapshot would list again what OFAC has delisted since. Null when nothing was loaded.
 */
export async function loadDefaultScreeningLists(endpoint: string, tableName: string): Promise<ImportSummary | null> {
  const files = await Promise.all(DEFAULT_SCREENING_LISTS.map((file) => readScreeningFile(createReadStream(file))));
  const db = createDocumentClient(endpoint);
  try {
    const store = new DynamoScreeningStore(db, tableName);
    if ((await store.state()).ofacSyncedAt !== null) return null;
    const from = `config/screening/${DEFAULT_SCREENING_LISTS.map((file) => basename(file)).join(' + ')}`;
    return await importScreeningFile(store, combinedPlainLists(files), { from, actor: 'local runtime' });
  } finally {
    db.destroy();
  }
}
