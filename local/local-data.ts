import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from './data-folder.ts';
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

/**
 * The `npm start` running on .data/, from the state file it keeps while up. A file left by one
 * killed (-9) is judged by its PID: gone, or this command's own (in a container, a new process can
 * get the dead runtime's PID), it runs no more.
 */
export function runningRuntime(): RunningRuntime | null {
  const file = join(DATA_DIR, 'runtime.json');
  if (!existsSync(file)) return null;
  let state: RunningRuntime;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as RunningRuntime;
  } catch {
    // Written beside and renamed over: only one from before that, cut short by a kill -9.
    return null;
  }
  if (!Number.isSafeInteger(state?.pid) || state.pid === process.pid) return null;
  return isAlive(state.pid) ? state : null;
}
