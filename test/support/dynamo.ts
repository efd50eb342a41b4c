import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ensureTable } from '#local/dynamodb-local';

/** A fresh table on the run's DynamoDB Local, so test files never see each other's data. */
export async function freshTable(): Promise<{ endpoint: string; tableName: string; db: ReturnType<typeof createDocumentClient> }> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  return { endpoint, tableName, db: createDocumentClient(endpoint) };
}

/**
 * The test file's own table: its client and name at once, so the file's stores and sandbox chain can
 * be plain constants; the table itself is created before the first test, the client closed after
 * the last.
 */
export function useFreshTable(): { endpoint: string; tableName: string; db: ReturnType<typeof createDocumentClient> } {
  const endpoint = inject('dynamoEndpoint');
  const table = { endpoint, tableName: `test-${randomUUID()}`, db: createDocumentClient(endpoint) };
  beforeAll(() => ensureTable(endpoint, table.tableName));
  afterAll(() => table.db.destroy());
  return table;
}
