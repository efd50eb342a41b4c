import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { getDeposit } from '#functions/deposits/deposits';
import { evmChainOf } from '#functions/networks/evm/from-settings';
import { BlockedListUsdt } from '#functions/networks/evm/usdt-contracts';
import { anvilAccount, localWalletClient } from '#local/evm-contracts';
import { TokenWithoutControls } from '#local/evm-issuer';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { evmDepositJobs } from '../support/evm-jobs.ts';
import { useEvmTokenFixture } from '../support/evm-token-fixture.ts';

/**
 * Arbitrum's USDT as it is today: USD₮0, Tether's newer TetherToken, whose freeze is a blocked list
 * (`isBlocked`, `addToBlockedList`, `destroyBlockedFunds`) and which has no pause, fee or
 * deprecation (contracts/usdt/BlockedListUsdt.sol on a real anvil, the stage's `tokenControls:
 * 'blocked-list'`). The jobs read its controls as they read TetherToken's: a blocked deposit address
 * is held and set aside, released when unblocked; an erased one is never credited; payouts go out
 * without asking for a pause the token does not have. A stage that names the old token's controls
 * for it fails every poll with an error that says which setting to change.
 */

const NETWORK = 'arbitrum';
const CONFIRMATIONS = 3;
const token = useEvmTokenFixture(NETWORK, { chainId: 42161, confirmations: CONFIRMATIONS, usdtToken: 'blocked-list' });
const { env, deposits, anvil, stage, balanceOf, companyUsdt, issuer, newDeposit, pay, paidOut, newPayee, reconciliation, reconciled, unfrozenAndSwept } = token;
const { client, creditPaid, sweeper } = anvil;
const sweepUntilSettled = () => anvil.sweepUntilSettled(3);

describe("USD₮0's blocked list (Tether's newer token), on anvil", () => {
  it('a blocked deposit address is held and set aside while the others are credited and swept; unblocked, it is credited and swept, and a payout goes out without a pause read', async () => {
    const [blocked, free] = [await newDeposit(), await newDeposit()];
    await pay(blocked!.address, '7');
    await pay(free!.address, '5');
    await issuer().freeze(blocked!.address);
    expect(await client().readContract({ address: anvil.node.usdt, abi: BlockedListUsdt.abi, functionName: 'isBlocked', args: [blocked!.address as Address] })).toBe(true);
    await creditPaid();

    expect(await getDeposit(deposits, token.companyId, blocked!.id)).toMatchObject({ status: 'held', transactions: [expect.objectContaining({ holdReason: 'address_frozen' })] });
    expect(await getDeposit(deposits, token.companyId, free!.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('5') });
    expect(await companyUsdt()).toMatchObject({ available: usdt('5'), held: usdt('7') });
    const [first] = await sweepUntilSettled();
    expect(first).toMatchObject({ sent: 1, forwarders: 1, wouldRevert: 0 });
    expect(await balanceOf(free!.address)).toBe(0n);
    expect(await balanceOf(blocked!.address)).toBe(7_000_000n);
    expect(await sweeper().store.setAsideAddresses()).toEqual([blocked!.address]);
    await reconciled();

    // No pause to read: the token answers none, and the sender never asks.
    expect(await evmChainOf(NETWORK, anvil.settings).tokenPaused(stage().usdtContract)).toBe(false);
    const payee = newPayee();
    expect(await paidOut(payee, '2')).toMatchObject({ status: 'completed', deliveredAmount: usdt('2') });
    expect(await balanceOf(payee)).toBe(2_000_000n);

    await unfrozenAndSwept(blocked!, '7');
    await reconciled();
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
  }, 120_000);

  it('the issuer, not Cambio, erases a blocked address (destroyBlockedFunds burns it): unblocked, its payment is never credited, and reconcile shows the loss', async () => {
    const deposit = await newDeposit();
    await issuer().freeze(deposit.address);
    await pay(deposit.address, '6');
    await creditPaid();
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('6') });
    const before = (await reconciliation()).difference;
    const erase = await localWalletClient(anvil.node.chain, anvilAccount.issuer()).writeContract({ address: anvil.node.usdt, abi: BlockedListUsdt.abi, functionName: 'destroyBlockedFunds', args: [deposit.address as Address] });
    expect((await client().waitForTransactionReceipt({ hash: erase })).status).toBe('success');
    expect(await balanceOf(deposit.address)).toBe(0n);
    await issuer().unfreeze(deposit.address);

    expect(await anvil.depositJobs().release()).toBe(0);
    await sweepUntilSettled();
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n });
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('6') });
    expect((await reconciliation()).difference - before).toBe(-usdt('6'));
  }, 120_000);

  it("the issuer's controls it does not have (pause, fee, deprecation) are refused before anything is sent", async () => {
    await expect(issuer().pause()).rejects.toThrow(TokenWithoutControls);
    await expect(issuer().setFee(10, usdt('1'))).rejects.toThrow(/no transfer fee/);
    await expect(issuer().deprecate()).rejects.toThrow(/no deprecation/);
  });

  it("a stage that names the old token's controls for this contract fails the poll with an error naming tokenControls 'blocked-list', never reading the address as not frozen", async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '1');
    const misnamed = { ...anvil.settings, EVM_NETWORKS: { [NETWORK]: { ...stage(), tokenControls: 'tether' as const } } };
    const jobs = evmDepositJobs(env, NETWORK, misnamed);
    await jobs.scan();
    await anvil.mine(CONFIRMATIONS);
    await jobs.scan();
    await expect(jobs.confirm()).rejects.toThrow(/tokenControls 'tether'.*'blocked-list'/s);
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'confirming', creditedAmount: 0n });
    // Named rightly, the same payment is credited.
    await creditPaid();
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('1') });
  }, 120_000);
});
