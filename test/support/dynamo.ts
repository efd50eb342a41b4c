import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ensureTable } from '#local/dynamodb-local';
import { loadDefaultScreeningLists } from '#local/screening-defaults';

export type TestTable = { endpoint: string; tableName: string; db: ReturnType<typeof createDocumentClient> };

/** A table name of its own on the run's DynamoDB Local, and a client for it (the table not made yet). */
function newTestTable(): TestTable {
  const endpoint = inject('dynamoEndpoint');
  return { endpoint, tableName: `test-${randomUUID()}`, db: createDocumentClient(endpoint) };
}

/** A new table with the shipped screening lists in it, as `npm start` makes one (screening is on by default). */
async function makeTable(table: TestTable): Promise<void> {
  await ensureTable(table.endpoint, table.tableName);
  await loadDefaultScreeningLists(table.endpoint, table.tableName);
}

/** A fresh table on the run's DynamoDB Local, so test files never see each other's data. */
export async function freshTable(): Promise<TestTable> {
  const table = newTestTable();
  await makeTable(table);
  return table;
}

/**
 * The test file's own table: its client and name at once, so the file's stores and sandbox chain can
 * be plain constants; the table itself is created before the first test, the client closed after
 * the last.
 */
export function useFreshTable(): TestTable {
  const table = newTestTable();
  beforeAll(() => makeTable(table));
  afterAll(() => table.db.destroy());
  return table;
}

/**
 * A test file's table with no screening list in it, as a deployed stage's is before the screening
 * refresh job's first import: created before the first test, the client closed after the last.
 */
export function useTableWithoutScreening(): TestTable {
  const table = newTestTable();
  beforeAll(() => ensureTable(table.endpoint, table.tableName));
  afterAll(() => table.db.destroy());
  return table;
}
