import { describe, expect, it } from 'vitest';
import { DynamoRescanCursor, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
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
  it('reads blocks the live scan has read again, beside it: one rescan at a time, and how far it has come', async () => {
    const status = async () => JSON.parse((await rescan(['--network', 'tron', '--status', '--json'])).stdout);
    expect(await status()).toEqual({ network: 'tron', result: 'status', rescan: null });
    // Nothing read yet: nothing to read again.
    expect(JSON.parse((await rescan(['--network', 'tron', '--from-block', '10', '--json'])).stdout)).toEqual({ network: 'tron', result: 'not_started' });
    await scannedTo(500);

    const started = await rescan(['--network', 'tron', '--from-block', '400']);
    expect(started).toMatchObject({ status: 0 });
    expect(started.stdout).toContain('The tron deposit poller reads blocks 400–499 again (100 blocks), beside its live scan');
    // The live scan stays where it was.
    expect(await tronCursor().position()).toBe(500);
    expect(await status()).toEqual({ network: 'tron', result: 'status', rescan: { fromBlock: 400, nextBlock: 400, untilBlock: 499, requestedAt: expect.any(String) } });

    // While it has blocks left, another is refused (exit 1), and nothing changes.
    const second = await rescan(['--network', 'tron', '--from-block', '100', '--to-block', '120']);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/A rescan of tron blocks 400–499 \(asked .*\) is under way: at block 400, 100 blocks left\. Another can start once it has finished\./);
    const secondAsJson = await rescan(['--network', 'tron', '--from-block', '100', '--json']);
    expect(secondAsJson.status).toBe(1);
    expect(JSON.parse(secondAsJson.stdout)).toMatchObject({ result: 'in_progress', rescan: { fromBlock: 400, nextBlock: 400, untilBlock: 499 } });

    // The poller reads it to its end.
    const rescans = new DynamoRescanCursor(env.db, env.tableName, 'sandbox:usdt');
    expect(await rescans.acquire('poller', new Date(), 60_000)).toEqual({ nextBlock: 400, untilBlock: 499 });
    await rescans.advance('poller', 500);
    await rescans.release('poller');
    expect((await rescan(['--network', 'tron', '--status'])).stdout).toMatch(/The last rescan of tron blocks 400–499 \(asked .*\) has finished\./);

    // --to-block bounds the next, and never past what the live scan has read; a block it has not read yet is its own.
    const bounded = await rescan(['--network', 'tron', '--from-block', '100', '--to-block', '900', '--json']);
    expect(JSON.parse(bounded.stdout)).toMatchObject({ result: 'started', rescan: { fromBlock: 100, nextBlock: 100, untilBlock: 499 } });
    const unread = await rescan(['--network', 'tron', '--from-block', '500']);
    expect(unread).toMatchObject({ status: 0 });
    expect(unread.stdout).toContain('The tron deposit scan has read up to block 499, not block 500 yet: it reads it anyway.');
  }, 60_000);

  it.each([
    [['--network', 'bitcoin', '--from-block', '1'], /--network must be one of tron, ethereum/],
    [['--network', 'tron', '--from-block', 'yesterday'], /--from-block must be a block number/],
    [['--network', 'tron'], /Give --from-block \(and perhaps --to-block\) to start a rescan, or --status alone/],
    [['--network', 'tron', '--status', '--from-block', '5'], /or --status alone/],
    [['--network', 'tron', '--from-block', '20', '--to-block', '10'], /--to-block \(10\) must not be before --from-block \(20\)/],
    // The sandbox stage opens no EVM network.
    [['--network', 'ethereum', '--from-block', '1'], /ethereum is not open on the sandbox stage/],
  ])('refuses %j with exit 2, changing nothing', async (args, message) => {
    const refused = await rescan(args);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).toContain('Usage: npm run deposits:rescan');
  }, 60_000);
});
