import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { confirmDeposits, expireDeposits, scanDeposits } from '#domain/deposit-chain';
import { dynamoFromEnv } from '#adapters/runtime';
import { chainFromEnv } from '#adapters/chain/from-env';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';

const { db, tableName } = dynamoFromEnv();
const { chain, settings } = chainFromEnv(db, tableName);
const store = new DynamoDepositChainStore(db, tableName);
const cursor = new DynamoScanCursor(db, tableName, settings.cursorName);

/**
 * The deposit poller (EventBridge schedule in AWS, a timer in the local runtime): scan new blocks,
 * settle what solidified, expire what is overdue. One structured line per run.
 */
export async function pollDeposits(): Promise<Record<string, unknown>> {
  const deps = { chain, store, usdtContract: settings.usdtContract };
  const scan = await scanDeposits({ ...deps, cursor, owner: randomUUID() });
  const confirm = await confirmDeposits(deps);
  const expired = await expireDeposits(deps);
  return { scan, confirm, expired };
}

export const handler = middy().handler(async () => {
  const outcome = await pollDeposits();
  console.log(JSON.stringify({ level: 'info', message: 'deposit poll', ...outcome }));
  return outcome;
});
