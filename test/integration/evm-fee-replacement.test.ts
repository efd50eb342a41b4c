import { erc20Abi, parseGwei, parseTransaction, parseUnits, type Address, type Hash, type TransactionSerialized } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import type { EvmNetworkSettings } from '#functions/networks/evm/settings';
import type { SliceSettings } from '#functions/settings/functions';
import type { Log } from '#functions/shared/log';
import { Bep20Usdt } from '#functions/networks/evm/usdt-contracts';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { localWalletClient } from '#local/evm-contracts';
import { STAGES } from '../../config/stages.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { jsonLines } from '../support/log-lines.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { anvilNetworkSettings, useAnvilWithContracts } from '../support/anvil.ts';

/**
 * A payout stuck under its fee on a real anvil (BSC's chain id, USDT's 18 decimals): the node's
 * automatic mining is off, so a payout waits in its pool as on a busy chain, and the base fee is
 * raised past what it offers. Unmined `replaceAfterMs` after its broadcast, it is replaced (same
 * nonce and transfer, higher fees, under the cap), lands once, and the withdrawal completes with the
 * hash of the version that landed; at the cap it is not replaced and says so; a network on legacy
 * pricing signs and replaces gasPrice transactions (functions/networks/evm/withdrawal-sending.ts).
 */
const NETWORK = 'bsc';
const CONFIRMATIONS = 3;
const UNIT = 10n ** 12n; // 18 decimals on chain, 6 outside
const REPLACE_AFTER_MS = 60_000;
const env = useFreshTable();
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const anvil = useAnvilWithContracts({ chainId: 56, usdtDecimals: 18 });
const { client, mine, testClient } = anvil;
let companyId: string;

/** The errors a run logs, kept for the test to read. */
function recordingLog() {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  const log: Log = { warn: () => {}, error: (message, fields) => errors.push({ message, fields }) };
  return { log, errors };
}

/**
 * A sender on a hot wallet of its own (gas and 1,000 USDT), so a payout a test leaves stuck holds
 * up no other test's nonces; `later` is its clock moved past the replacement time.
 */
async function hotWalletSender(network: Partial<EvmNetworkSettings> = {}) {
  const key = generatePrivateKey();
  const { address } = privateKeyToAccount(key);
  await testClient().setBalance({ address, value: parseUnits('10', 18) });
  const hash = await localWalletClient(anvil.node.chain, anvil.node.deployer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [address, parseUnits('1000', 18)] });
  await mine(1);
  await client().waitForTransactionReceipt({ hash });
  const settings = { EVM_NETWORKS: { [NETWORK]: { ...anvilNetworkSettings(anvil.node, { chainId: 56, confirmations: CONFIRMATIONS }), ...network } } } as SliceSettings<'chain'>;
  const chain = evmChainOf(NETWORK, settings);
  const { log, errors } = recordingLog();
  const sender: EvmSendingDeps = {
    chain,
    payouts: evmPayoutsOf(NETWORK, settings, localEvmSigner(key.slice(2)), chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, NETWORK),
    replaceAfterMs: REPLACE_AFTER_MS,
    log,
  };
  const later: EvmSendingDeps = { ...sender, now: () => new Date(Date.now() + REPLACE_AFTER_MS + 1_000) };
  return { address, key: key.slice(2), settings, sender, later, errors };
}

/** The same sender, its broadcasts lost: a process killed right after its write. */
const killedBeforeBroadcast = (sender: EvmSendingDeps): EvmSendingDeps => ({
  ...sender,
  payouts: Object.assign(Object.create(sender.payouts) as EvmSendingDeps['payouts'], {
    broadcast: async () => {
      throw new Error('process killed');
    },
  }),
});

const withdraw = (to: string, amount: string): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } }, companyId, { reference: `w-${Math.random()}`, network: NETWORK, address: to, amount: usdt(amount) }, new Date());
const read = (withdrawal: Withdrawal) => getWithdrawal(withdrawals, companyId, withdrawal.id);
const usdtOf = async (address: string) => (await client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] })) / UNIT;
const balance = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const signedOf = (withdrawal: Withdrawal) => parseTransaction(withdrawal.transaction!.signed as TransactionSerialized);
const receiptOf = (txHash: string) => client().getTransactionReceipt({ hash: txHash as Hash }).catch(() => null);

/** The base fee from the next block on, far above what the payouts waiting offer; one block mined at it. */
async function feeSpike(baseFeePerGas: bigint) {
  await testClient().request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [`0x${baseFeePerGas.toString(16)}`] as never });
  await mine(1);
}

/** A withdrawal sent into the pool while the node mines nothing, then left below a fee spike. */
async function stuckPayout(sender: EvmSendingDeps, to: string, amount: string) {
  const withdrawal = await withdraw(to, amount);
  expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1 });
  const sent = await read(withdrawal);
  expect(sent.transaction!.broadcastAt).toEqual(expect.any(String));
  const offered = signedOf(sent);
  await feeSpike((offered.maxFeePerGas ?? offered.gasPrice!) * 4n);
  expect(await receiptOf(sent.txHash!)).toBeNull();
  return sent;
}

/** A stuck payout of `amount` to a new address whose replacement the sender, past the replacement
 * time, stored and was killed before broadcasting: the payout as sent, and as stored after that run. */
async function replacementStoredNotBroadcast(amount: string) {
  const { sender, later } = await hotWalletSender();
  const to = newAddress();
  const stuck = await stuckPayout(sender, to, amount);
  await settleEvmWithdrawals(killedBeforeBroadcast(later));
  return { sender, later, to, stuck, stored: await read(stuck) };
}

/**
 * One run of the withdrawal sender job on the network, as a schedule starts it, a minute later than
 * now (the job reads its clock): the embedded metrics it writes. The job reads the stage's figures
 * from the environment on its first import, as in Lambda.
 */
async function senderJobMetrics(network: EvmNetworkSettings, hotWalletKey: string): Promise<Record<string, unknown>[]> {
  Object.assign(process.env, STAGES.local.functionEnvironment, {
    TABLE_NAME: env.tableName,
    DYNAMODB_ENDPOINT: env.endpoint,
    STAGE: 'local',
    STAGE_ENVIRONMENT: STAGES.local.environment,
    EVM_NETWORKS: JSON.stringify({ [NETWORK]: network }),
    LOCAL_HOT_WALLET_KEY: hotWalletKey,
    POWERTOOLS_METRICS_DISABLED: 'false',
  });
  const written: string[] = [];
  const capture = (chunk: unknown) => written.push(String(chunk)) > 0;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const { handler } = await import('../../functions/handlers/jobs/withdrawal-sender.ts');
    await handler({ network: NETWORK }, { awsRequestId: 'fee-cap-run' } as never);
  } finally {
    vi.restoreAllMocks();
    vi.useRealTimers();
  }
  return jsonLines(written).filter((line) => line._aws);
}

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'EVM Fees Co', environment: 'sandbox' }, new Date()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', '10000', NETWORK);
  await testClient().setAutomine(false);
  return () => testClient().setAutomine(true);
});

describe('EVM payouts stuck under their fee, on anvil', () => {
  it('a payout unmined past the replacement time is replaced (same nonce and transfer, every fee over 10 % higher), lands once, and completes with the landed hash and one fee', async () => {
    const { sender, later } = await hotWalletSender();
    const to = newAddress();
    const stuck = await stuckPayout(sender, to, '7');
    // Not yet due: the same transaction is broadcast again, nothing replaced.
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ replaced: 0 });
    expect((await read(stuck)).txHash).toBe(stuck.txHash);

    expect(await settleEvmWithdrawals(later)).toMatchObject({ replaced: 1, feeCapReached: 0 });
    const replaced = await read(stuck);
    expect(replaced).toMatchObject({ status: 'processing', transaction: { nonce: stuck.transaction!.nonce, replacedTxHashes: [stuck.txHash], broadcastAt: expect.any(String) } });
    expect(replaced.txHash).not.toBe(stuck.txHash);
    const [before, after] = [signedOf(stuck), signedOf(replaced)];
    expect({ nonce: after.nonce, to: after.to, data: after.data, gas: after.gas, type: after.type }).toEqual({ nonce: before.nonce, to: before.to, data: before.data, gas: before.gas, type: 'eip1559' });
    expect(after.maxFeePerGas! * 100n).toBeGreaterThan(before.maxFeePerGas! * 110n);
    expect(after.maxPriorityFeePerGas! * 100n).toBeGreaterThan(before.maxPriorityFeePerGas! * 110n);
    // At least what the node asks now: above the spiked base fee.
    const { baseFeePerGas } = await client().getBlock();
    expect(after.maxFeePerGas!).toBeGreaterThanOrEqual(baseFeePerGas!);

    await mine(1);
    expect(await usdtOf(to)).toBe(usdt('7'));
    expect(await receiptOf(replaced.txHash!)).toMatchObject({ status: 'success' });
    expect(await receiptOf(stuck.txHash!)).toBeNull();
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(later)).toMatchObject({ completed: 1, replaced: 0 });
    expect(await read(stuck)).toMatchObject({ status: 'completed', txHash: replaced.txHash });
    expect(await usdtOf(to)).toBe(usdt('7'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('7') - WITHDRAWAL_RULES.fee, locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it("a nonce filler stuck under a fee spike is replaced like the payout it fills: it lands once, and the withdrawal fails with its funds back", async () => {
    const { sender, later } = await hotWalletSender();
    const refused = await withdraw(newAddress(), '4');
    await sendEvmWithdrawals(killedBeforeBroadcast(sender));
    // Blocks now hold less gas than the stored transfer asks for, but a plain transfer's 21,000:
    // the node refuses the payout for good, and its nonce gets a filler, which waits in the pool.
    await testClient().request({ method: 'evm_setBlockGasLimit' as never, params: [`0x${(30_000).toString(16)}`] as never });
    let filler: NonNullable<NonNullable<Withdrawal['transaction']>['filler']>;
    try {
      expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 0, failed: 0 });
      filler = (await read(refused)).transaction!.filler!;
      expect(filler).toMatchObject({ refusal: expect.stringMatching(/gas/), broadcastAt: expect.any(String) });
      const offered = parseTransaction(filler.signed as TransactionSerialized).maxFeePerGas!;
      await feeSpike(offered * 4n);
      expect(await receiptOf(filler.txHash)).toBeNull();
    } finally {
      await testClient().request({ method: 'evm_setBlockGasLimit' as never, params: [`0x${(30_000_000).toString(16)}`] as never });
    }

    expect(await settleEvmWithdrawals(later)).toMatchObject({ replaced: 1, failed: 0 });
    const replaced = (await read(refused)).transaction!;
    expect(replaced.filler).toMatchObject({ replacedTxHashes: [filler.txHash], refusal: filler.refusal, broadcastAt: expect.any(String) });
    // The same transfer of nothing to the wallet itself, on the same nonce, at a higher fee.
    const [before, after] = [parseTransaction(filler.signed as TransactionSerialized), parseTransaction(replaced.filler!.signed as TransactionSerialized)];
    expect({ nonce: after.nonce, to: after.to, value: after.value ?? 0n }).toEqual({ nonce: replaced.nonce, to: before.to, value: 0n });
    expect(after.maxFeePerGas!).toBeGreaterThan(before.maxFeePerGas! * 4n);
    await mine(1);
    expect(await receiptOf(replaced.filler!.txHash)).toMatchObject({ status: 'success' });
    expect(await receiptOf(filler.txHash)).toBeNull();
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(later)).toMatchObject({ failed: 1, replaced: 0 });
    expect(await read(refused)).toMatchObject({ status: 'failed', failureReason: 'REFUSED_BY_NODE' });
    expect(await balance()).toMatchObject({ available: usdt('10000'), locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a replacement stored but never broadcast (the sender killed): the next run broadcasts the newest version, which lands', async () => {
    const { sender, later, to, stuck, stored } = await replacementStoredNotBroadcast('3');
    expect(stored).toMatchObject({ transaction: { replacedTxHashes: [stuck.txHash], broadcastAt: null } });

    // Its clock starts when the node takes it: broadcast again, not replaced again.
    expect(await settleEvmWithdrawals(later)).toMatchObject({ rebroadcast: 1, replaced: 0 });
    expect(await read(stuck)).toMatchObject({ txHash: stored.txHash, transaction: { broadcastAt: expect.any(String) } });
    await mine(1 + CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 1 });
    expect(await read(stuck)).toMatchObject({ status: 'completed', txHash: stored.txHash });
    expect(await usdtOf(to)).toBe(usdt('3'));
  });

  it('the version replaced lands after all: the withdrawal completes with its hash, the replacement never lands', async () => {
    const { sender, later, to, stuck, stored: replaced } = await replacementStoredNotBroadcast('4');
    expect(replaced.txHash).not.toBe(stuck.txHash);

    // The spike passes and another node's pool still had the first version: it is mined.
    await feeSpike(1n);
    await client().request({ method: 'eth_sendRawTransaction', params: [stuck.transaction!.signed as Hash] }).catch(() => undefined);
    await mine(1);
    expect(await receiptOf(stuck.txHash!)).toMatchObject({ status: 'success' });
    // Mined, not yet final: neither version is broadcast again.
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 0, rebroadcast: 0, replaced: 0 });
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(later)).toMatchObject({ completed: 1 });
    expect(await read(stuck)).toMatchObject({ status: 'completed', txHash: stuck.txHash });
    await mine(1);
    expect(await receiptOf(replaced.txHash!)).toBeNull();
    expect(await usdtOf(to)).toBe(usdt('4'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('4') - WITHDRAWAL_RULES.fee, locked: 0n });
  });

  it('a replacement that would exceed the fee cap: not replaced, logged as an error, counted for the alarm', async () => {
    // The payout is signed at the cap: the node's estimate is above it.
    await feeSpike(parseGwei('3'));
    const { sender, later, errors, settings, key } = await hotWalletSender({ maxFeePerGasGwei: 3 });
    const to = newAddress();
    const stuck = await stuckPayout(sender, to, '5');
    expect(signedOf(stuck).maxFeePerGas).toBe(parseGwei('3'));

    expect(await settleEvmWithdrawals(later)).toMatchObject({ replaced: 0, feeCapReached: 1 });
    expect(await read(stuck)).toMatchObject({ status: 'processing', txHash: stuck.txHash, transaction: { signed: stuck.transaction!.signed } });
    expect((await read(stuck)).transaction!.replacedTxHashes).toBeUndefined();
    // The base fee (4 × what it offers) is above the cap itself: no version could be mined, so it is
    // not broadcast either, and the run says so once.
    expect(errors).toContainEqual({ message: expect.stringMatching(/fee cap/), fields: expect.objectContaining({ withdrawalIds: [stuck.id], capWeiPerGas: String(parseGwei('3')) }) });
    // The sender job publishes it, with the network's name, for the stack's FeeCapReached<Network> alarm.
    const metrics = await senderJobMetrics({ ...settings.EVM_NETWORKS[NETWORK]!, replaceAfterSeconds: 10 }, key);
    expect(metrics).toContainEqual(expect.objectContaining({ Network: NETWORK, PayoutFeeCapReached: 1, WithdrawalsReplaced: 0 }));

    // The spike passes: the payout as signed lands, once.
    await feeSpike(1n);
    await settleEvmWithdrawals(sender);
    await mine(1 + CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 1 });
    expect(await read(stuck)).toMatchObject({ status: 'completed', txHash: stuck.txHash });
    expect(await usdtOf(to)).toBe(usdt('5'));
  });

  it('a fee cap below the base fee: nothing signed, broadcast or replaced, one error a run, counted for the alarm; once the base fee falls every payout lands once', async () => {
    const { sender, later, errors, address } = await hotWalletSender({ maxFeePerGasGwei: 3 });
    // One payout in the pool, priced under the cap, before the base fee passes the cap.
    const first = newAddress();
    const waiting = await withdraw(first, '2');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1 });
    await feeSpike(parseGwei('10'));
    const nonceBefore = await client().getTransactionCount({ address, blockTag: 'pending' });
    const payees = [newAddress(), newAddress(), newAddress()];
    const queued = await Promise.all(payees.map((to) => withdraw(to, '1')));

    for (let run = 1; run <= 3; run++) {
      // No nonce taken for what cannot be mined; the one in the pool is neither rebroadcast nor replaced.
      expect(await sendEvmWithdrawals(later)).toMatchObject({ sent: 0, feeCapReached: 3 });
      expect(await settleEvmWithdrawals(later)).toMatchObject({ rebroadcast: 0, replaced: 0, feeCapReached: 1 });
      // Two errors a run (the sender's and the settler's), however many payouts wait.
      expect(errors).toHaveLength(2 * run);
    }
    expect(errors.every((error) => /base fee is above the fee cap/.test(error.message))).toBe(true);
    expect(errors[0]!.fields).toMatchObject({ pending: 3, baseFeeWeiPerGas: String(parseGwei('10')), capWeiPerGas: String(parseGwei('3')) });
    expect(errors[1]!.fields).toMatchObject({ unmined: 1, withdrawalIds: [waiting.id] });
    for (const withdrawal of queued) expect(await read(withdrawal)).toMatchObject({ status: 'pending' });
    expect(await client().getTransactionCount({ address, blockTag: 'pending' })).toBe(nonceBefore);

    // The base fee falls: the next run sends, and each payee receives its amount once.
    await feeSpike(1n);
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 3, feeCapReached: 0 });
    await settleEvmWithdrawals(sender);
    await mine(1 + CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 4, feeCapReached: 0 });
    expect(await usdtOf(first)).toBe(usdt('2'));
    for (const to of payees) expect(await usdtOf(to)).toBe(usdt('1'));
    expect(errors).toHaveLength(6);
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('5') - 4n * WITHDRAWAL_RULES.fee, locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe('a network on legacy pricing (feeMarket legacy)', () => {
  it('signs a legacy transaction with a gasPrice under the cap, which the node takes and mines; completed with exactly the amount', async () => {
    await testClient().setAutomine(true);
    const { sender } = await hotWalletSender({ feeMarket: 'legacy', maxFeePerGasGwei: 50 });
    const to = newAddress();
    const withdrawal = await withdraw(to, '9');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1 });
    const sent = await read(withdrawal);
    const transaction = await client().getTransaction({ hash: sent.txHash as Hash });
    expect(transaction.type).toBe('legacy');
    expect(transaction.chainId).toBe(56);
    expect(transaction.gasPrice).toBeLessThanOrEqual(parseGwei('50'));
    expect(await usdtOf(to)).toBe(usdt('9'));
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: sent.txHash });
  });

  it('replaces a stuck legacy payout by a higher gasPrice, which lands once', async () => {
    const { sender, later } = await hotWalletSender({ feeMarket: 'legacy' });
    const to = newAddress();
    const stuck = await stuckPayout(sender, to, '6');
    expect(await settleEvmWithdrawals(later)).toMatchObject({ replaced: 1 });
    const replaced = await read(stuck);
    const [before, after] = [signedOf(stuck), signedOf(replaced)];
    expect([before.type, after.type]).toEqual(['legacy', 'legacy']);
    expect(after.gasPrice! * 100n).toBeGreaterThan(before.gasPrice! * 110n);
    await mine(1 + CONFIRMATIONS);
    expect(await settleEvmWithdrawals(later)).toMatchObject({ completed: 1 });
    expect(await read(stuck)).toMatchObject({ status: 'completed', txHash: replaced.txHash });
    expect(await usdtOf(to)).toBe(usdt('6'));
  });
});
