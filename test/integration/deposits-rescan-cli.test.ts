import { describe, expect, it } from 'vitest';
import { DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { useFreshTable } from '../support/dynamo.ts';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * `npm run deposits:rescan` as an operator runs it against a deployed stage's table (the sandbox
 * stage's settings: TRON on the sandbox chain, whose scan cursor is `sandbox:usdt`), here a fresh
 * table on DynamoDB Local.
 */
const env = useFreshTable();
const rescan = (args: string[]) => runOpsCommand('ops/deposits-rescan.ts', [...args, '--stage', 'sandbox', '--table', env.tableName], { DYNAMODB_ENDPOINT: env.endpoint });
const tronCursor = () => new DynamoScanCursor(env.db, env.tableName, 'sandbox:usdt');

/** A TRON scan that has read up to the block before `nextBlock`. */
async function scannedTo(nextBlock: number) {
  const cursor = tronCursor();
  expect(await cursor.acquire('poller', new Date(), 60_000)).not.toBeNull();
  await cursor.advance('poller', nextBlock);
  await cursor.release('poller');
}

describe('npm run deposits:rescan', () => {
  it("moves the network's scan back to the block named, never forward, and says what it did", async () => {
    await scannedTo(500);

    const back = await rescan(['--network', 'tron', '--from-block', '400']);
    expect(back).toMatchObject({ status: 0 });
    expect(back.stdout).toContain('Moved the tron deposit scan back from block 500 to block 400: the poller reads the 100 blocks again');
    expect(await tronCursor().position()).toBe(400);

    const forward = await rescan(['--network', 'tron', '--from-block', '450', '--json']);
    expect(forward).toMatchObject({ status: 0 });
    expect(JSON.parse(forward.stdout)).toEqual({ network: 'tron', result: 'not_past', fromBlock: 450, wasAt: 400 });
    expect(await tronCursor().position()).toBe(400);
  }, 60_000);

  it.each([
    [['--network', 'bitcoin', '--from-block', '1'], /--network must be one of tron, ethereum/],
    [['--network', 'tron', '--from-block', 'yesterday'], /--from-block must be a block number/],
    [['--network', 'tron'], /--from-block must be a block number/],
    // The sandbox stage opens no EVM network.
    [['--network', 'ethereum', '--from-block', '1'], /ethereum is not open on the sandbox stage/],
  ])('refuses %j with exit 2, changing nothing', async (args, message) => {
    const refused = await rescan(args);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).toContain('Usage: npm run deposits:rescan');
  }, 60_000);
});
