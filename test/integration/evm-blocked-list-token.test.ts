import { erc20Abi, parseUnits, type Address } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import { returnUnfrozen } from '#functions/deposits/frozen-addresses';
import { sweepEvmDepositAddresses, type EvmSweepDeps } from '#functions/networks/evm/sweeps';
import { requestWithdrawal, getWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf } from '#functions/networks/evm/from-settings';
import { BlockedListUsdt } from '#functions/networks/evm/usdt-contracts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { anvilAccount, hotWalletFloatOf, localWalletClient } from '#local/evm-contracts';
import { evmSandboxIssuer, TokenWithoutControls } from '#local/evm-issuer';
import { useFreshTable } from '../support/dynamo.ts';
import { expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { evmDepositJobs, evmSenderDeps, evmSweeperDeps, reconcileEvmNetworks, useEvmDepositAnvil } from '../support/evm-jobs.ts';

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
const env = useFreshTable();
const deposits = new DynamoDepositStore(env.db, env.tableName);
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const anvil = useEvmDepositAnvil(env, NETWORK, { chainId: 42161, usdtDecimals: 6, confirmations: CONFIRMATIONS, usdtToken: 'blocked-list' });
const { client, mine, creditPaid } = anvil;
let companyId: string;

const stage = () => anvil.settings.EVM_NETWORKS[NETWORK]!;
const balanceOf = (address: string) => client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] });
const companyUsdt = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const issuer = () => evmSandboxIssuer(NETWORK, stage());
const RULES = { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } };

async function pay(to: string, amount: string) {
  const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: anvil.node.usdt, abi: BlockedListUsdt.abi, functionName: 'transfer', args: [to as Address, parseUnits(amount, 6)] });
  expect((await client().waitForTransactionReceipt({ hash })).status).toBe('success');
}

const newDeposit = (): Promise<Deposit> => createDeposit(deposits, depositSettingsFrom(anvil.settings), companyId, { network: NETWORK, reference: `bl-${Math.random()}` }, new Date());

function sweeper(): EvmSweepDeps {
  const deps = evmSweeperDeps(env, NETWORK, anvil.settings);
  return { ...deps, frozenAmong: (addresses) => deps.chain.frozenAmong(stage().usdtContract, addresses) };
}

async function sweepUntilSettled() {
  const results = [];
  for (let run = 0; run < 3; run++) {
    const deps = sweeper();
    await returnUnfrozen(deps.store, deps.frozenAmong!, deps.usdtBalances);
    results.push(await sweepEvmDepositAddresses(deps));
    await mine(CONFIRMATIONS);
  }
  return results;
}

const reconciliation = async () => (await reconcileEvmNetworks(env, anvil.settings, { [NETWORK]: anvil.node.hotWallet.address })).networks.find((network) => network.network === NETWORK)!;
async function reconciled() {
  const result = await reconcileEvmNetworks(env, anvil.settings, { [NETWORK]: anvil.node.hotWallet.address });
  expect(result.networks.find((network) => network.network === NETWORK)!.balanced, reconciliationReport(result)).toBe(true);
}

beforeAll(async () => {
  await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(NETWORK, anvil.node), new Date());
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Blocked List Co', environment: 'sandbox' }, new Date()));
});

describe("USD₮0's blocked list (Tether's newer token), on anvil", () => {
  it('a blocked deposit address is held and set aside while the others are credited and swept; unblocked, it is credited and swept, and a payout goes out without a pause read', async () => {
    const [blocked, free] = [await newDeposit(), await newDeposit()];
    await pay(blocked!.address, '7');
    await pay(free!.address, '5');
    await issuer().freeze(blocked!.address);
    expect(await client().readContract({ address: anvil.node.usdt, abi: BlockedListUsdt.abi, functionName: 'isBlocked', args: [blocked!.address as Address] })).toBe(true);
    await creditPaid();

    expect(await getDeposit(deposits, companyId, blocked!.id)).toMatchObject({ status: 'held', transactions: [expect.objectContaining({ holdReason: 'address_frozen' })] });
    expect(await getDeposit(deposits, companyId, free!.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('5') });
    expect(await companyUsdt()).toMatchObject({ available: usdt('5'), held: usdt('7') });
    const [first] = await sweepUntilSettled();
    expect(first).toMatchObject({ sent: 1, forwarders: 1, wouldRevert: 0 });
    expect(await balanceOf(free!.address)).toBe(0n);
    expect(await balanceOf(blocked!.address)).toBe(7_000_000n);
    expect(await sweeper().store.setAsideAddresses()).toEqual([blocked!.address]);
    await reconciled();

    // No pause to read: the token answers none, and the sender never asks.
    expect(await evmChainOf(NETWORK, anvil.settings).tokenPaused(stage().usdtContract)).toBe(false);
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const withdrawal = await requestWithdrawal(withdrawals, RULES, companyId, { reference: `bl-out-${Math.random()}`, network: NETWORK, address: payee, amount: usdt('2') }, new Date());
    await sendEvmWithdrawals(evmSenderDeps(env, NETWORK, anvil.settings));
    await mine(CONFIRMATIONS);
    await settleEvmWithdrawals(evmSenderDeps(env, NETWORK, anvil.settings));
    expect(await getWithdrawal(withdrawals, companyId, withdrawal.id)).toMatchObject({ status: 'completed', deliveredAmount: usdt('2') });
    expect(await balanceOf(payee)).toBe(2_000_000n);

    await issuer().unfreeze(blocked!.address);
    expect(await anvil.depositJobs().release()).toBe(1);
    expect(await getDeposit(deposits, companyId, blocked!.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('7') });
    await sweepUntilSettled();
    expect(await balanceOf(blocked!.address)).toBe(0n);
    expect(await sweeper().store.setAsideAddresses()).toEqual([]);
    await reconciled();
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
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
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n });
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
    await mine(CONFIRMATIONS);
    await jobs.scan();
    await expect(jobs.confirm()).rejects.toThrow(/tokenControls 'tether'.*'blocked-list'/s);
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'confirming', creditedAmount: 0n });
    // Named rightly, the same payment is credited.
    await creditPaid();
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('1') });
  }, 120_000);
});
