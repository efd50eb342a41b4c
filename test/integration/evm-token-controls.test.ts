import { createWalletClient, http, parseUnits, type Address, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { getDeposit, type Deposit } from '#functions/deposits/deposits';
import { returnUnfrozen } from '#functions/deposits/frozen-addresses';
import { getWithdrawal, requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals } from '#functions/networks/evm/withdrawal-sending';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { anvilAccount, localWalletClient } from '#local/evm-contracts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { evmSenderDeps, reconcileEvmNetworks } from '../support/evm-jobs.ts';
import { useEvmTokenFixture } from '../support/evm-token-fixture.ts';

/**
 * Ethereum's USDT as Tether runs it (contracts/usdt/TetherUsdt.sol on a real anvil): a frozen
 * deposit address among ten never stalls the batch sweep and its deposit is held until unfrozen; an
 * address frozen after it was credited is set aside, not put in a batch that would revert; a 10 bp
 * fee leaves reconcile balanced and each withdrawal's deliveredAmount what the payee received; and
 * a deprecation mid-run credits payments through both contracts, sends the next payout through the
 * upgraded one and, when the stage's usdtContract is changed, skips no block.
 */
const NETWORK = 'ethereum';
const CONFIRMATIONS = 3;
const token = useEvmTokenFixture(NETWORK, { chainId: 1, confirmations: CONFIRMATIONS });
const { env, deposits, withdrawals, anvil, rules: RULES, balanceOf, companyUsdt, issuer, newDeposit, newPayee, pay, paidOut, reconciled, unfrozenAndSwept } = token;
const { client, mine, creditPaid, sweeper, sweepUntilSettled } = anvil;

/** TetherToken's destroyBlackFunds, as the issuer: a frozen address's balance erased, with no Transfer event. */
async function destroyFrozenFunds(address: string) {
  const hash = await localWalletClient(anvil.node.chain, anvilAccount.issuer()).writeContract({ address: anvil.node.usdt, abi: TetherUsdt.abi, functionName: 'destroyBlackFunds', args: [address as Address] });
  expect((await client().waitForTransactionReceipt({ hash })).status).toBe('success');
  expect(await balanceOf(address)).toBe(0n);
}

/** A deposit paid `amount` while its address was frozen (held, not credited), the address then
 * unfrozen, its USDT first erased by the issuer when `erased`. */
async function paidWhileFrozen(amount: string, { erased }: { erased: boolean }): Promise<Deposit> {
  const deposit = await newDeposit();
  await issuer().freeze(deposit.address);
  await pay(deposit.address, amount);
  await creditPaid();
  expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt(amount) });
  if (erased) await destroyFrozenFunds(deposit.address);
  await issuer().unfreeze(deposit.address);
  return deposit;
}

describe("Ethereum's USDT under Tether's controls, on anvil", () => {
  it('a pause landing after the sender read the token’s standing leaves the payouts it meets pending, not failed: they go out once it lifts', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '30');
    await creditPaid();
    await sweepUntilSettled();
    const payees = [newPayee(), newPayee()];
    const queued = await Promise.all(payees.map((payee) => requestWithdrawal(withdrawals, RULES, token.companyId, { reference: `pause-${Math.random()}`, network: NETWORK, address: payee, amount: usdt('5') }, new Date())));
    // The run read the standing before the pause (withdrawalSenderRun): its payouts' estimates revert.
    await issuer().pause();
    const sender = evmSenderDeps(env, NETWORK, anvil.settings);
    try {
      expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 0, failed: 0 });
      for (const withdrawal of queued) expect((await getWithdrawal(withdrawals, token.companyId, withdrawal.id)).status).toBe('pending');
      expect(await companyUsdt()).toMatchObject({ locked: 2n * (usdt('5') + RULES.fee) });
    } finally {
      await issuer().unpause();
    }
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 2, failed: 0 });
    await mine(CONFIRMATIONS);
    await settleEvmWithdrawals(sender);
    for (const [index, withdrawal] of queued.entries()) {
      expect((await getWithdrawal(withdrawals, token.companyId, withdrawal.id)).status).toBe('completed');
      expect(await balanceOf(payees[index]!)).toBe(usdt('5'));
    }
  }, 120_000);

  it('one frozen deposit address among ten: the nine are credited and swept in one batch, the frozen one held and set aside; unfrozen, credited and swept', async () => {
    const made: Deposit[] = [];
    for (let i = 0; i < 10; i++) made.push(await newDeposit());
    const [frozen, ...others] = made;
    for (const deposit of made) await pay(deposit.address, '10');
    await issuer().freeze(frozen!.address);
    await creditPaid();

    expect(await getDeposit(deposits, token.companyId, frozen!.id)).toMatchObject({ status: 'held', transactions: [expect.objectContaining({ holdReason: 'address_frozen' })] });
    expect(await companyUsdt()).toMatchObject({ available: usdt('90'), held: usdt('10'), pending: 0n });
    const [first] = await sweepUntilSettled();
    expect(first).toMatchObject({ sent: 1, forwarders: 9, wouldRevert: 0 });
    for (const other of others) expect(await balanceOf(other.address)).toBe(0n);
    expect(await balanceOf(frozen!.address)).toBe(10_000_000n);
    // The alarm's figure: the one address set aside.
    expect(await sweeper().store.setAsideAddresses()).toEqual([frozen!.address]);
    await reconciled();

    await unfrozenAndSwept(frozen!, '10');
    expect(await companyUsdt()).toMatchObject({ available: usdt('100'), held: 0n });
    await reconciled();
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
  }, 120_000);

  it('an address frozen after it was credited is set aside before the batch is built, and its credit taken back into held until it is unfrozen', async () => {
    const made = [await newDeposit(), await newDeposit(), await newDeposit()];
    for (const deposit of made) await pay(deposit.address, '4');
    await creditPaid();
    expect(await companyUsdt()).toMatchObject({ available: usdt('12') });
    await issuer().freeze(made[0]!.address);
    const [first] = await sweepUntilSettled();
    expect(first).toMatchObject({ sent: 1, forwarders: 2, frozen: 1, wouldRevert: 0 });
    expect(await balanceOf(made[0]!.address)).toBe(4_000_000n);
    // The 4 USDT that cannot move are no longer the company's to withdraw.
    expect(await companyUsdt()).toMatchObject({ available: usdt('8'), held: usdt('4') });
    expect(await getDeposit(deposits, token.companyId, made[0]!.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('4') });
    await expect(requestWithdrawal(withdrawals, RULES, token.companyId, { reference: 'tc-frozen', network: NETWORK, address: newPayee(), amount: usdt('9') }, new Date())).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
    });
    await reconciled();

    await issuer().unfreeze(made[0]!.address);
    await sweepUntilSettled();
    expect(await balanceOf(made[0]!.address)).toBe(0n);
    expect(await companyUsdt()).toMatchObject({ available: usdt('12'), held: 0n });
    const unfrozen = await getDeposit(deposits, token.companyId, made[0]!.id);
    expect(unfrozen).toMatchObject({ status: 'completed', creditedAmount: usdt('4') });
    expect(unfrozen.frozenCredit).toBeUndefined();
    await reconciled();
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
  }, 120_000);

  it('an address frozen after the company spent part of its credit: what is still available is held, never more, and reconcile still balances', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '10');
    await creditPaid();
    // Withdrawn from the hot wallet's float before the freeze is known: 7 of the 10 (and the fee) are spent.
    expect(await paidOut(newPayee(), '6')).toMatchObject({ status: 'completed' });
    const left = (await companyUsdt()).available;
    expect(left).toBeGreaterThan(0n);
    expect(left).toBeLessThan(usdt('10'));
    await issuer().freeze(deposit.address);
    await sweepUntilSettled();
    expect(await balanceOf(deposit.address)).toBe(10_000_000n);
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: left });
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: usdt('10') - left, frozenCredit: left });
    await reconciled();
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);

    await issuer().unfreeze(deposit.address);
    await sweepUntilSettled();
    expect(await companyUsdt()).toMatchObject({ available: left, held: 0n });
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('10') });
    await reconciled();
  }, 120_000);

  it('with a 10 bp fee: deposits, their sweep and a payout later, reconcile balances and deliveredAmount is the payee’s balanceOf increase', async () => {
    await issuer().setFee(10, usdt('40'));
    try {
      const made = [await newDeposit(), await newDeposit()];
      await pay(made[0]!.address, '100');
      await pay(made[1]!.address, '33.5');
      await creditPaid();
      // Credited what arrived: each payment less its 0.1 % fee.
      expect(await companyUsdt()).toMatchObject({ available: usdt('99.9') + usdt('33.4665') });
      await sweepUntilSettled();
      await reconciled();

      const payee = newPayee();
      const done = await paidOut(payee, '50');
      expect(done).toMatchObject({ status: 'completed', deliveredAmount: usdt('49.95') });
      expect(await balanceOf(payee)).toBe(done.deliveredAmount);
      await reconciled();
      await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
    } finally {
      await issuer().setFee(0, 0n);
    }
  }, 120_000);

  it('a held payment unfrozen while the sweeper runs before the poller is not swept away from the poller: it waits set aside, then is credited and swept', async () => {
    const deposit = await paidWhileFrozen('5', { erased: false });

    await sweepUntilSettled();
    expect(await balanceOf(deposit.address)).toBe(5_000_000n);
    expect(await anvil.depositJobs().release()).toBe(1);
    expect(await companyUsdt()).toMatchObject({ available: usdt('5'), held: 0n });
    await sweepUntilSettled();
    expect(await balanceOf(deposit.address)).toBe(0n);
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('5') });
    await reconciled();
  }, 120_000);

  // After every test that expects reconcile balanced: what the issuer erases below stays reconcile's shortfall.
  it('a held payment whose frozen address the issuer erased (destroyBlackFunds) and then unfroze is never credited: it stays held', async () => {
    const deposit = await paidWhileFrozen('6', { erased: true });

    expect(await anvil.depositJobs().release()).toBe(0);
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n });
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('6') });
    // The sweeper, too, gives nothing back: the address stays set aside, counted for the alarm.
    await sweepUntilSettled();
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('6') });
  }, 120_000);

  it('a payment after the issuer erased and unfroze an address is credited for itself, and never makes the erased payment count as there', async () => {
    const deposit = await paidWhileFrozen('3', { erased: true });
    await pay(deposit.address, '3');
    await creditPaid();

    expect(await anvil.depositJobs().release()).toBe(0);
    expect(await companyUsdt()).toMatchObject({ available: usdt('3'), held: usdt('3') });
  }, 120_000);

  it("a credit taken back when its address was frozen is not given back once the issuer erased the address's USDT and unfroze it", async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '4');
    await creditPaid();
    await issuer().freeze(deposit.address);
    await sweepUntilSettled();
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('4') });
    const shortfall = async () => (await reconcileEvmNetworks(env, anvil.settings, { [NETWORK]: anvil.node.hotWallet.address })).networks.find((n) => n.network === NETWORK)!.difference;
    const before = await shortfall();
    await destroyFrozenFunds(deposit.address);
    await issuer().unfreeze(deposit.address);

    await sweepUntilSettled();
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('4') });
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', frozenCredit: usdt('4') });
    expect(await sweeper().store.setAsideAddresses()).toContain(deposit.address);
    const review = await returnUnfrozen(sweeper().store, sweeper().frozenAmong!, sweeper().usdtBalances);
    expect(review).toMatchObject({ returned: 0, stillFrozen: 1 });
    // Finance sees the 4 USDT the issuer erased as reconcile's shortfall.
    expect((await shortfall()) - before).toBe(-usdt('4'));

    // A payment there later is credited and swept for itself; the address is then done with, not
    // read as empty too soon run after run for the 4 that exist nowhere.
    await pay(deposit.address, '2');
    await creditPaid();
    expect(await companyUsdt()).toMatchObject({ available: usdt('2'), held: usdt('4') });
    await sweepUntilSettled();
    expect(await balanceOf(deposit.address)).toBe(0n);
    expect((await sweeper().store.dueAddresses(1_000)).due.map((due) => due.address)).not.toContain(deposit.address);
  }, 120_000);
  it('deprecated mid-run: payments through the old and the upgraded contract are credited, the next payout goes through the upgraded one, and the stage switching usdtContract skips no block', async () => {
    const beforeDeprecation = await newDeposit();
    await pay(beforeDeprecation.address, '5');
    await creditPaid();
    const { upgradedContract } = await issuer().deprecate();
    const throughOld = await newDeposit();
    const throughNew = await newDeposit();
    await pay(throughOld.address, '6');
    await pay(throughNew.address, '7', upgradedContract as Address);
    await creditPaid();
    for (const [deposit, amount] of [[beforeDeprecation, '5'], [throughOld, '6'], [throughNew, '7']] as const) {
      expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt(amount) });
    }

    const paid = await paidOut(newPayee(), '3');
    expect(paid).toMatchObject({ status: 'completed', deliveredAmount: usdt('3') });
    const transaction = await client().getTransaction({ hash: paid.txHash as Hash });
    expect(transaction.to?.toLowerCase()).toBe(upgradedContract.toLowerCase());

    // The stage now names the upgraded contract: a payment made meanwhile is found, no block skipped.
    const meanwhile = await newDeposit();
    await pay(meanwhile.address, '8', upgradedContract as Address);
    // Further back than the scan's overlap re-reads: a scan starting afresh at the head would miss it.
    await mine(40);
    anvil.settings = { ...anvil.settings, EVM_NETWORKS: { [NETWORK]: { ...anvil.settings.EVM_NETWORKS[NETWORK]!, usdtContract: upgradedContract } } };
    await creditPaid();
    expect(await getDeposit(deposits, token.companyId, meanwhile.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('8') });
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
  }, 120_000);

  it('a deposit paid from a sanctioned address (one of OFAC\'s Ethereum addresses, funded on anvil, in lower case) is held as sender_sanctioned', async () => {
    const sanctioned = '0x8589427373D6D84E98730D7795D8f6f8731FDA16'.toLowerCase() as Address;
    const test = anvil.testClient();
    await test.setBalance({ address: sanctioned, value: 10n ** 18n });
    await pay(sanctioned, '30');
    await test.impersonateAccount({ address: sanctioned });
    const deposit = await newDeposit();
    const hash = await createWalletClient({ chain: anvil.node.chain, transport: http(anvil.node.url) }).writeContract({
      account: sanctioned,
      address: anvil.node.usdt,
      abi: TetherUsdt.abi,
      functionName: 'transfer',
      args: [deposit.address as Address, parseUnits('30', 6)],
    });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe('success');
    await creditPaid();
    expect(await getDeposit(deposits, token.companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, transactions: [expect.objectContaining({ holdReason: 'sender_sanctioned' })] });
    expect(await companyUsdt()).toMatchObject({ available: 0n, held: usdt('30') });
    await expectLedgerMatchesBalances(env.db, env.tableName, token.companyId);
  }, 60_000);
});

