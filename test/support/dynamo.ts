import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ensureTable } from '#local/dynamodb-local';

/** A fresh table on the run's DynamoDB Local, so test files never see each other's data. */
export async function freshTable(): Promise<{ endpoint: string; tableName: string; db: ReturnType<typeof createDocumentClient> }> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  return { endpoint, tableName, db: createDocumentClient(endpoint) };
}
