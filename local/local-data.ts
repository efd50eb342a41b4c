import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { LOCAL_TABLE_NAME, type RunningRuntime } from './runtime-files.ts';

export const DATA_DIR = '.data';

/**
 * Runs `work` against the local runtime's data: through the running runtime's DynamoDB Local when
 * `npm start` is up (two engines must not share one data folder), else through one started on
 * .data/ for the moment it takes.
 */
export async function withLocalData<T>(work: (endpoint: string, tableName: string) => Promise<T>): Promise<T> {
  let started: DynamoDbLocal | undefined;
  try {
    const running = runningRuntime();
    const endpoint = running?.dynamoEndpoint ?? (started = await startDynamoDbLocal({ dbPath: join(DATA_DIR, 'dynamodb') })).endpoint;
    const tableName = running?.tableName ?? LOCAL_TABLE_NAME;
    await ensureTable(endpoint, tableName);
    return await work(endpoint, tableName);
  } finally {
    await started?.stop();
  }
}

/** The `npm start` running on .data/, from the state file it keeps while up. */
export function runningRuntime(): RunningRuntime | null {
  const file = join(DATA_DIR, 'runtime.json');
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, 'utf8')) as RunningRuntime;
  try {
    process.kill(state.pid, 0);
    return state;
  } catch {
    return null;
  }
}
