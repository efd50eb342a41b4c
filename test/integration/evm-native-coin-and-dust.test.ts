import { erc20Abi, parseAbiItem, parseEther, parseEventLogs, parseUnits, type Address, type Hash } from 'viem';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit } from '#functions/deposits/deposits';
import { sweepEvmDepositAddresses, type EvmSweepDeps } from '#functions/networks/evm/sweeps';
import { isForwarderOf } from '#functions/networks/evm/from-settings';
import { Bep20Usdt } from '#functions/networks/evm/usdt-contracts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { reconciliationReport, type HoldingsReconciliation } from '#functions/ledger/reconciliation';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { hotWalletFloatOf, localWalletClient } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { usdt } from '../support/money.ts';
import { evmSweeperDeps, reconcileEvmNetworks, useEvmDepositAnvil } from '../support/evm-jobs.ts';

/**
 * Native coin at EVM deposit addresses and BSC's dust, against a real anvil (BSC's chain id, its
 * 18-decimal BEP20USDT): BNB a payer sent to a deposit address is reported by reconcile and moved
 * to the hot wallet by the next sweep (contracts/DepositForwarderFactory.sol `sweep`,
 * functions/networks/evm/sweeps.ts); a transfer of less than 1e-6 USDT is recorded as dust, never
 * credited, and reconcile explains it (functions/deposits/dust.ts, functions/ledger/reconciliation.ts).
 */
const NETWORK = 'bsc';
const CONFIRMATIONS = 3;
const SWEPT_NATIVE = parseAbiItem('event SweptNative(bytes32 indexed salt, address indexed forwarder, uint256 amount)');
const env = useFreshTable();
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const anvil = useEvmDepositAnvil(env, NETWORK, { chainId: 56, usdtDecimals: 18, confirmations: CONFIRMATIONS });
const { client, mine } = anvil;
let companyId: string;

const nativeOf = (address: string) => client().getBalance({ address: address as Address });
const companyUsdt = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')?.available ?? 0n;

const newDeposit = () => createDeposit(deposits, depositSettingsFrom(anvil.settings), companyId, { network: NETWORK, reference: `nc-${Math.random()}` }, new Date());

/** The customer pays `amount` of USDT, in the token's base units (18 decimals), to `to`. */
async function payBaseUnits(to: string, amount: bigint) {
  const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [to as Address, amount] });
  await client().waitForTransactionReceipt({ hash });
}

/** The customer's wallet sends native coin (BNB here), with the gas it is given or its estimate. */
async function sendNative(to: string, value: bigint, gas?: bigint) {
  const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).sendTransaction({ to: to as Address, value, ...(gas !== undefined && { gas }) });
  return client().waitForTransactionReceipt({ hash });
}

/** The sweeper as the job builds it, native coin read through the factory. */
function sweeper(): EvmSweepDeps {
  const deps = evmSweeperDeps(env, NETWORK, anvil.settings);
  return {
    ...deps,
    native: {
      balances: (addresses) => deps.chain.nativeBalances(anvil.node.factory, addresses),
      isForwarderOf: (address, depositId) => isForwarderOf(anvil.settings.EVM_NETWORKS[NETWORK]!, address, depositId),
    },
  };
}

/** Settles what is open and leaves nothing due or in flight. */
async function sweepAndSettle() {
  const sent = await sweepEvmDepositAddresses(sweeper());
  await mine(CONFIRMATIONS);
  await sweepEvmDepositAddresses(sweeper());
  return sent;
}

const reconcileNow = () => reconcileEvmNetworks(env, anvil.settings, { [NETWORK]: anvil.node.hotWallet.address });
const onBsc = (result: HoldingsReconciliation) => result.networks.find((network) => network.network === NETWORK)!;

beforeAll(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Native Coin Co', environment: 'sandbox' }, new Date()));
  // The hot wallet's float, recorded as npm start records it: reconcile starts balanced.
  await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(NETWORK, anvil.node), new Date());
});

describe('native coin at an EVM deposit address', () => {
  it('2 BNB sent to a credited, unswept deposit address: reconcile reports it; the next sweep moves it with the USDT, the hot wallet gaining 2 BNB less only its gas', async () => {
    const deposit = await newDeposit();
    await payBaseUnits(deposit.address, parseUnits('5', 18));
    await anvil.creditPaid();
    await sendNative(deposit.address, parseEther('2'));

    const before = await reconcileNow();
    expect(onBsc(before).nativeAtDepositAddresses, reconciliationReport(before)).toEqual([{ address: deposit.address, amount: parseEther('2') }]);
    expect(reconciliationReport(before)).toMatch(/bsc .*native coin at 1 deposit address\(es\) 2000000000000000000/);
    expect(onBsc(before).balanced, reconciliationReport(before)).toBe(true);

    const hotBefore = await nativeOf(anvil.node.hotWallet.address);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 1, nativeForwarders: 1 });
    const [sweep] = await sweeper().store.openSweeps();
    expect(sweep).toMatchObject({ amount: usdt('5'), nativeAmount: parseEther('2'), forwarders: [{ address: deposit.address, amount: usdt('5'), native: parseEther('2') }] });
    // Mined just after the node answered the broadcast (anvil's automine): waited for, not read at once.
    const receipt = await client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    expect(parseEventLogs({ abi: [SWEPT_NATIVE], logs: receipt.logs }).map((log) => log.args)).toEqual([expect.objectContaining({ forwarder: deposit.address, amount: parseEther('2') })]);
    // Exactly 2 BNB in, the sweep's gas out: nothing else moved the hot wallet's BNB.
    expect((await nativeOf(anvil.node.hotWallet.address)) - hotBefore).toBe(parseEther('2') - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await nativeOf(deposit.address)).toBe(0n);

    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, sent: 0 });
    const after = await reconcileNow();
    expect(after.balanced, reconciliationReport(after)).toBe(true);
    expect(onBsc(after).nativeAtDepositAddresses).toEqual([]);
  }, 60_000);

  it('BNB at a deposit address never paid in USDT is found by the turn through every address and swept alone; once deployed, the forwarder still takes a wallet\'s plain send, while a 2,300-gas stipend leaves the coin with the payer', async () => {
    const deposit = await newDeposit();
    // A wallet's plain send with the bare 21,000 gas: the address has no code yet.
    expect((await sendNative(deposit.address, parseEther('2'), 21_000n)).status).toBe('success');
    const hotBefore = await nativeOf(anvil.node.hotWallet.address);

    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 1, nativeForwarders: 1 });
    const [sweep] = await sweeper().store.openSweeps();
    expect(sweep).toMatchObject({ amount: 0n, nativeAmount: parseEther('2') });
    // Mined just after the node answered the broadcast (anvil's automine): waited for, not read at once.
    const receipt = await client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    expect((await nativeOf(anvil.node.hotWallet.address)) - hotBefore).toBe(parseEther('2') - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await client().getCode({ address: deposit.address as Address })).toBeTruthy();
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, sent: 0 });

    // Deployed: a wallet's send (gas estimated: the clone's DELEGATECALL costs ~3k more) lands...
    expect((await sendNative(deposit.address, parseEther('1'))).status).toBe('success');
    // ...a send with the 2,300 gas a contract's transfer() gives reverts, and the coin stays with the payer.
    expect((await sendNative(deposit.address, parseEther('1'), 21_000n + 2_300n)).status).toBe('reverted');
    expect(await nativeOf(deposit.address)).toBe(parseEther('1'));
    expect(await sweepAndSettle()).toMatchObject({ sent: 1, nativeForwarders: 1 });
    expect(await nativeOf(deposit.address)).toBe(0n);
    expect(onBsc(await reconcileNow()).nativeAtDepositAddresses).toEqual([]);
    // Nothing was credited for it: it is not a payment.
    expect((await deposits.getDeposit(companyId, deposit.id))?.status).toBe('awaiting_payment');
  }, 60_000);

  it('native coin below the network\'s sweep minimum is not swept on its own (a stranger\'s wei to many addresses costs the hot wallet no gas); reconcile still reports it', async () => {
    const deposit = await newDeposit();
    expect((await sendNative(deposit.address, 1_000n, 21_000n)).status).toBe('success');
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 0, nativeForwarders: 0 });
    expect(await nativeOf(deposit.address)).toBe(1_000n);
    expect(onBsc(await reconcileNow()).nativeAtDepositAddresses).toContainEqual({ address: deposit.address, amount: 1_000n });
  }, 60_000);
});

describe('dust on BSC (18 decimals)', () => {
  const dustRecords = async () =>
    (await env.db.send(new QueryCommand({ TableName: env.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `DUST#${NETWORK}` }, ConsistentRead: true }))).Items ?? [];

  it('1 wei of USDT to a deposit address is recorded as dust, not credited; 1.000001 USDT and 1 wei credits 1.000001 and records the wei; reconcile balanced, the dust explained, and unrecorded dust shown', async () => {
    const dusted = await newDeposit();
    const paid = await newDeposit();
    const balanceBefore = await companyUsdt();
    await payBaseUnits(dusted.address, 1n);
    await payBaseUnits(paid.address, parseUnits('1.000001', 18) + 1n);
    await anvil.creditPaid();
    await anvil.depositJobs().scan(); // a scan reading the same blocks again records nothing twice

    expect((await deposits.getDeposit(companyId, dusted.id))?.status).toBe('awaiting_payment');
    const credited = (await deposits.getDeposit(companyId, paid.id))!;
    expect(credited).toMatchObject({ status: 'completed', receivedAmount: usdt('1.000001') });
    expect((await companyUsdt()) - balanceBefore).toBe(credited.creditedAmount);
    const records = await dustRecords();
    expect(records.map((record) => [record.address, String(record.amount)]).sort()).toEqual([[dusted.address, '1'], [paid.address, '1']].sort());

    const result = await reconcileNow();
    expect(result.balanced, reconciliationReport(result)).toBe(true);
    expect(onBsc(result).balanced).toBe(true);
    expect(onBsc(result).dust).toEqual({ held: 2n, recorded: 2n });

    // Swept, the paid address's wei goes to the hot wallet with its USDT: still explained.
    await sweepAndSettle();
    expect(await client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [paid.address as Address] })).toBe(0n);
    const swept = await reconcileNow();
    expect(swept.balanced, reconciliationReport(swept)).toBe(true);
    expect(onBsc(swept).dust).toEqual({ held: 2n, recorded: 2n });

    // Sub-micro USDT no record explains (sent to the hot wallet, which is no deposit address) is shown.
    await payBaseUnits(anvil.node.hotWallet.address, 5n);
    const unexplained = await reconcileNow();
    expect(onBsc(unexplained).dust).toEqual({ held: 7n, recorded: 2n });
    expect(reconciliationReport(unexplained)).toContain('dust 7 held, 2 recorded (UNRECORDED DUST)');
  }, 60_000);

  it("a forwarder whose recorded dust rounds its balance up by more than a few units is still swept: the dust explains them (thirteen transfers of 0.0000009 after a credit of 2)", async () => {
    const deposit = await newDeposit();
    await payBaseUnits(deposit.address, parseUnits('2', 18));
    for (let i = 0; i < 13; i++) await payBaseUnits(deposit.address, parseUnits('0.0000009', 18));
    await anvil.creditPaid();
    expect(await deposits.getDeposit(companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('2') });

    expect(await sweepAndSettle()).toMatchObject({ sent: 1, waiting: 0 });
    expect(await client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [deposit.address as Address] })).toBe(0n);
  }, 60_000);

  it('two ordinary payments of 1.0000005 USDT, each credited 1.000000 and 0.0000005 recorded, swept: their remainders make a whole 0.000001 at the hot wallet, and reconcile still balances to the unit with the dust explained', async () => {
    const before = onBsc(await reconcileNow());
    const unexplainedBefore = before.dust!.held - before.dust!.recorded; // the 5 wei sent to the hot wallet above
    const payments = [await newDeposit(), await newDeposit()];
    for (const deposit of payments) await payBaseUnits(deposit.address, parseUnits('1.0000005', 18));
    await anvil.creditPaid();
    for (const deposit of payments) expect(await deposits.getDeposit(companyId, deposit.id)).toMatchObject({ status: 'completed', receivedAmount: usdt('1') });

    const credited = await reconcileNow();
    expect(credited.balanced, reconciliationReport(credited)).toBe(true);
    expect(onBsc(credited).dust!.held - onBsc(credited).dust!.recorded).toBe(unexplainedBefore);

    await sweepAndSettle();
    const swept = await reconcileNow();
    const report = reconciliationReport(swept);
    expect(swept, report).toMatchObject({ balanced: true, mismatch: null, dustUsdt: before.dustUsdt + 1n });
    expect(onBsc(swept), report).toMatchObject({ balanced: true, difference: 0n, dustUsdt: before.dustUsdt + 1n });
    expect(onBsc(swept).dust!.held - onBsc(swept).dust!.recorded, report).toBe(unexplainedBefore);
    expect(report).not.toContain('recorded dust not found');
  }, 60_000);
});
