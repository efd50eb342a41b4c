import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ensureTable, startDynamoDbLocal } from '#local/dynamodb-local';
import { loadDefaultScreeningLists } from '#local/screening-defaults';

/**
 * A DynamoDB Local of a scenario's own, for the scenarios that write thousands of items (the
 * scanners, the payouts): on the runtime's, which by then holds the route scenarios' items, every
 * request to a second table was several times slower (BENCHMARKS.md, Caveats), which would measure
 * the emulator, not the code under test. Kept apart from ./support.ts, which the load children load.
 */
export interface OwnDynamo {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** DynamoDB Local's port (./scanner-setup.ts finds its process by it). */
  port: number;
  /** Closes the client, then stops DynamoDB Local. */
  stop(): Promise<void>;
}

/** Starts DynamoDB Local (in memory) with `tableName` on it, holding the shipped screening list as
 * `npm start`'s table does (a list never loaded refuses every payout and credit); it is stopped
 * again if the table cannot be made. */
export async function startOwnDynamo(tableName: string): Promise<OwnDynamo> {
  const dynamo = await startDynamoDbLocal({});
  try {
    await ensureTable(dynamo.endpoint, tableName);
    await loadDefaultScreeningLists(dynamo.endpoint, tableName);
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
  const db = createDocumentClient(dynamo.endpoint);
  return {
    db,
    tableName,
    port: dynamo.port,
    async stop() {
      db.destroy();
      await dynamo.stop();
    },
  };
}
