import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { sandboxBalanceItem, sandboxGenesisItem } from '#adapters/dynamo/items/sandbox-chain';
import { queryAll, readItem } from '#adapters/dynamo/queries';
import { SANDBOX_TRX } from '#functions/networks/tron/sandbox-chain';
import { deriveDepositAddress, TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import { useFreshTable } from '../support/dynamo.ts';
import { BLOCK_MS, ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';
import { usdt } from '../support/money.ts';

/**
 * A local table made before the sandbox chain kept balances (an earlier version's .data/) holds
 * its transfers and receipts but no balance items: the chain computes the balances once from that
 * history when it starts over the table, and keeps them from then on.
 */
const env = useFreshTable();
const PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 777_001);
const ALICE = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 777_002);
const BOB = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 777_003);

/** Leaves the table as an earlier version wrote it: no balance items, a genesis without the mark. */
async function forgetBalances(contract: string): Promise<void> {
  const items = await queryAll(env.db, { TableName: env.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': sandboxBalanceItem.partition(contract) } });
  for (const item of items) await env.db.send(new DeleteCommand({ TableName: env.tableName, Key: { PK: item.PK, SK: item.SK } }));
  await env.db.send(new UpdateCommand({ TableName: env.tableName, Key: sandboxGenesisItem.key(), UpdateExpression: 'REMOVE balancesKept' }));
}

describe('SandboxChain over a table made before it kept balances', () => {
  it('computes each address balance from the successful transfers in its history, once', async () => {
    const clock = new ChainClock('2026-11-25T00:00:00.000Z', BLOCK_MS);
    const before = sandboxChainOver(env, clock);
    await before.submitTransfer({ contract: USDT, from: PAYER, to: ALICE, amount: usdt('40') });
    clock.advanceBlocks(1);
    await before.submitTransfer({ contract: USDT, from: PAYER, to: BOB, amount: usdt('2.5') });
    clock.advanceBlocks(1);
    // Failed on chain: it moved nothing.
    await before.submitTransfer({ contract: USDT, from: PAYER, to: BOB, amount: usdt('1000'), result: 'REVERT' });
    clock.advanceBlocks(1);
    // Another contract in the same history: its balances are kept apart.
    await before.submitTransfer({ contract: SANDBOX_TRX, from: PAYER, to: ALICE, amount: 5_000_000n });
    clock.advanceBlocks(1);
    await forgetBalances(USDT);
    await forgetBalances(SANDBOX_TRX);

    const after = sandboxChainOver(env, clock);
    expect(await after.tokenBalances(USDT, [ALICE, BOB])).toEqual(
      new Map([
        [ALICE, usdt('40')],
        [BOB, usdt('2.5')],
      ]),
    );
    expect(await after.feeBalance(ALICE)).toBe(5_000_000n);
    expect(await after.feeBalance(BOB)).toBe(0n);
    // The history is read once: the chain marks its genesis and keeps its balances since.
    expect((await readItem(env.db, env.tableName, sandboxGenesisItem.key()))?.balancesKept).toBe(true);
    await after.submitTransfer({ contract: USDT, from: PAYER, to: ALICE, amount: usdt('1') });
    clock.advanceBlocks(1);
    expect(await sandboxChainOver(env, clock).tokenBalance(USDT, ALICE)).toBe(usdt('41'));
  });
});
