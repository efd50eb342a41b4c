import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { sandboxBalanceItem, sandboxGenesisItem } from '#adapters/dynamo/items/sandbox-chain';
import { queryAll, readItem } from '#adapters/dynamo/queries';
import { SANDBOX_ISSUER, SANDBOX_TRX, SANDBOX_UPGRADED_USDT } from '#functions/networks/tron/sandbox-chain';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
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

  it('rebuilds the same balances from a history with a transfer fee and a deprecation: the fee to the issuer, both contracts one token', async () => {
    const clock = new ChainClock('2026-11-26T00:00:00.000Z', BLOCK_MS);
    const before = sandboxChainOver(env, clock);
    const issuer = tronSandboxIssuer(env.db, env.tableName);
    const [aliceBefore, bobBefore] = [await before.tokenBalance(USDT, ALICE), await before.tokenBalance(USDT, BOB)];
    await issuer.setFee(10, usdt('50'));
    await before.submitTransfer({ contract: USDT, from: PAYER, to: ALICE, amount: usdt('100') });
    clock.advanceBlocks(1);
    await issuer.setFee(0, 0n);
    await issuer.deprecate();
    // Emitted by the upgraded contract, as every transfer of the token from now on.
    await before.submitTransfer({ contract: USDT, from: PAYER, to: BOB, amount: usdt('3') });
    clock.advanceBlocks(1);
    await before.submitTransfer({ contract: SANDBOX_UPGRADED_USDT, from: PAYER, to: BOB, amount: usdt('2') });
    clock.advanceBlocks(1);
    const kept = await before.tokenBalances(USDT, [ALICE, BOB, SANDBOX_ISSUER]);
    expect(kept).toEqual(
      new Map([
        [ALICE, aliceBefore + usdt('99.9')],
        [BOB, bobBefore + usdt('5')],
        [SANDBOX_ISSUER, usdt('0.1')],
      ]),
    );
    await forgetBalances(USDT);

    const after = sandboxChainOver(env, clock);
    expect(await after.tokenBalances(USDT, [ALICE, BOB, SANDBOX_ISSUER])).toEqual(kept);
    expect(await after.tokenBalances(SANDBOX_UPGRADED_USDT, [ALICE, BOB, SANDBOX_ISSUER])).toEqual(kept);
  });
});
