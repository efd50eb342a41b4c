import { encodeAbiParameters, erc20Abi, keccak256, pad, parseAbiItem, parseEther, parseEventLogs, parseTransaction, parseUnits, toHex, type Address, type Hash, type TransactionSerialized } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { sweepEvmDepositAddresses, type EvmSweep, type EvmSweepDeps } from '#functions/networks/evm/sweeps';
import { requestWithdrawal, getWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf } from '#functions/networks/evm/from-settings';
import { Bep20Usdt, TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSweepStore } from '#functions/networks/evm/sweep-store';
import { reconcileHoldings, reconciliationReport, type HoldingsReconciliation, type LedgerSide } from '#functions/ledger/reconciliation';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { CAMBIO_BOOKS } from '#functions/ledger/ledger';
import { evmSandboxIssuer } from '#local/evm-issuer';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { ANVIL_MNEMONIC, HOT_WALLET_USDT, hotWalletFloatOf, localWalletClient } from '#local/evm-contracts';
import { checkHotWalletGas } from '#functions/networks/evm/hot-wallet-gas';
import { useFreshTable } from '../support/dynamo.ts';
import { storedLedgerEntries } from '../support/records.ts';
import { expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { evmSenderDeps, evmSweeperDeps, reconcileEvmNetworks, useEvmDepositAnvil } from '../support/evm-jobs.ts';

/**
 * Sweeps of EVM deposit forwarders against a real anvil (BSC's chain id and 18 decimals): credited
 * deposits swept many to one transaction through the factory, signed by the hot wallet with a
 * nonce from the sequence its withdrawals use, a sweeper killed before its broadcast, and sweeps
 * interleaved with withdrawals (functions/networks/evm/sweeps.ts); and reconciliation per network
 * through all of it (functions/ledger/reconciliation.ts).
 */
const NETWORK = 'bsc';
const CONFIRMATIONS = 3;
const UNIT = 10n ** 12n; // 18 decimals on chain, 6 outside
const SWEPT = parseAbiItem('event Swept(bytes32 indexed salt, address indexed forwarder, address indexed token, uint256 amount)');
const env = useFreshTable();
const deposits = new DynamoDepositStore(env.db, env.tableName);
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const anvil = useEvmDepositAnvil(env, NETWORK, { chainId: 56, usdtDecimals: 18, confirmations: CONFIRMATIONS });
const { client, mine } = anvil;
let companyId: string;

const usdtOf = async (address: string) => (await client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] })) / UNIT;
const companyUsdt = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;

/** Deposits paid these amounts by the customer, scanned and credited (final): due for a sweep. */
async function creditedDeposits(amounts: string[]): Promise<Deposit[]> {
  const made: Deposit[] = [];
  for (const amount of amounts) {
    const deposit = await createDeposit(deposits, depositSettingsFrom(anvil.settings), companyId, { network: NETWORK, reference: `sw-${Math.random()}` }, new Date());
    const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [deposit.address as Address, parseUnits(amount, 18)] });
    await client().waitForTransactionReceipt({ hash });
    made.push(deposit);
  }
  await anvil.creditPaid();
  return made;
}

/** The sweeper as the job builds it; `batchSize` forwarders at most in one sweep. */
const sweeper = ({ batchSize = 100 } = {}): EvmSweepDeps => evmSweeperDeps(env, NETWORK, anvil.settings, { batchSize });

/** The sweeper, its broadcasts lost: a process killed right after storing its sweep. */
function killedBeforeBroadcast(): EvmSweepDeps {
  const killed = sweeper();
  killed.payouts = Object.assign(Object.create(killed.payouts) as EvmSweepDeps['payouts'], {
    broadcast: async () => {
      throw new Error('process killed');
    },
  });
  return killed;
}

const sender = (): EvmSendingDeps => evmSenderDeps(env, NETWORK, anvil.settings);

const sumOf = (amounts: string[]) => amounts.reduce((sum, amount) => sum + usdt(amount), 0n);
const dueNow = async () => (await new DynamoEvmSweepStore(env.db, env.tableName, NETWORK).dueAddresses(1_000)).due;

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'EVM Sweep Co', environment: 'sandbox' }, new Date()));
  // Each test starts with nothing due: what an earlier test left is swept and settled.
  for (let run = 0; run < 10 && ((await dueNow()).length > 0 || (await sweeper().store.openSweeps()).length > 0); run++) {
    await sweepEvmDepositAddresses(sweeper());
    await mine(CONFIRMATIONS);
  }
});

/** Deposits paid `amounts` and credited; the hot wallet's USDT and its transaction count before a sweep. */
async function creditedBeforeSweep(amounts: string[]) {
  await creditedDeposits(amounts);
  const hotBefore = await usdtOf(anvil.node.hotWallet.address);
  return { hotBefore, nonce: await client().getTransactionCount({ address: anvil.node.hotWallet.address }) };
}

describe('EVM sweeps on anvil', () => {
  it("12 credited forwarders are swept in one transaction: the hot wallet's USDT grows by exactly their sum; the ledger does not move", async () => {
    const amounts = ['1.5', '2', '3.25', '4', '5', '6.75', '7', '8', '9.5', '10', '11', '12.000001'];
    const made = await creditedDeposits(amounts);
    expect((await dueNow()).map((due) => due.address).sort()).toEqual(made.map((deposit) => deposit.address).sort());
    const companyBefore = await companyUsdt();
    const hotBefore = await usdtOf(anvil.node.hotWallet.address);
    const nonceBefore = await client().getTransactionCount({ address: anvil.node.hotWallet.address });

    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 12 });
    const [sweep] = await sweeper().store.openSweeps();
    expect(sweep).toMatchObject({ status: 'sending', amount: sumOf(amounts), nonce: nonceBefore });
    // One transaction from the hot wallet, twelve forwarders deployed and emptied by it (mined just
    // after the node answered its broadcast: waited for, as below).
    const receipt = await client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address })).toBe(nonceBefore + 1);
    expect(receipt.status).toBe('success');
    expect(receipt.to?.toLowerCase()).toBe(anvil.node.factory.toLowerCase());
    expect(parseEventLogs({ abi: [SWEPT], logs: receipt.logs })).toHaveLength(12);
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(sumOf(amounts));
    for (const deposit of made) expect(await usdtOf(deposit.address)).toBe(0n);

    // Not final yet: still open, its forwarders not swept again.
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 0, done: 0 });
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, cleared: 12, sent: 0 });
    expect(await dueNow()).toEqual([]);
    expect(await sweeper().store.openSweeps()).toEqual([]);
    expect(await new DynamoEvmSweepStore(env.db, env.tableName, NETWORK).finishedSweeps()).toContainEqual(expect.objectContaining({ id: sweep!.id, status: 'done', amount: sumOf(amounts) }));
    expect(await companyUsdt()).toEqual(companyBefore);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('a payment the scanner has not recorded is not flushed with the credited money: the forwarder waits, still due, until it is credited, then is swept whole; one landing after a sweep waits too', async () => {
    const [deposit] = await creditedDeposits(['5']);
    const address = deposit!.address;
    /** A payment on chain that the scanner, a minute behind, has not read yet. */
    const payUnscanned = async (amount: string) => {
      const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [address as Address, parseUnits(amount, 18)] });
      await client().waitForTransactionReceipt({ hash });
    };
    await payUnscanned('50');
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 0, waiting: 1 });
    expect(await usdtOf(address)).toBe(usdt('55'));
    // Still due: it waits for the scanner, run after run.
    expect((await dueNow()).map((due) => due.address)).toEqual([address]);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 0, waiting: 1 });

    // Recorded and credited: all of it recorded, swept whole.
    await anvil.creditPaid();
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 1 });
    const [sweep] = await sweeper().store.openSweeps();
    await client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    expect(await usdtOf(address)).toBe(0n);

    // Another lands once it is mined, before it is final: settling takes the 55 off the address's
    // counts, so this one is not taken for what they said was there.
    await payUnscanned('7');
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, sent: 0 });
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 0 });
    expect(await usdtOf(address)).toBe(usdt('7'));
    await anvil.creditPaid();
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 1 });
    await mine(CONFIRMATIONS);
    expect(await usdtOf(address)).toBe(0n);
    expect(await companyUsdt()).toMatchObject({ available: usdt('62') });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('more due forwarders than a batch holds: the rest go in the next sweep, on the next nonce', async () => {
    const made = await creditedDeposits(['2', '2', '2', '2', '2']);
    const hotBefore = await usdtOf(anvil.node.hotWallet.address);
    expect(await sweepEvmDepositAddresses(sweeper({ batchSize: 3 }))).toMatchObject({ sent: 1, forwarders: 3 });
    expect(await sweepEvmDepositAddresses(sweeper({ batchSize: 3 }))).toMatchObject({ sent: 1, forwarders: 2 });
    const open = await sweeper().store.openSweeps();
    expect(open.map((sweep) => sweep.forwarders.length)).toEqual([3, 2]);
    expect(open[1]!.nonce).toBe(open[0]!.nonce + 1);
    expect(new Set(open.flatMap((sweep) => sweep.forwarders.map((forwarder) => forwarder.address)))).toEqual(new Set(made.map((deposit) => deposit.address)));
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(usdt('10'));
  }, 60_000);

  it('reads on past a page that holds only a forwarder with a payment still confirming', async () => {
    const made = await creditedDeposits(['2', '3']);
    const [first, second] = made.map((deposit) => deposit.address).sort();
    // The first in address order is paid again; the payment is seen, not yet final.
    const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [first as Address, parseUnits('1', 18)] });
    await client().waitForTransactionReceipt({ hash });
    await anvil.depositJobs().scan();
    // A batch of one: the first page holds only the confirming one, left out.
    expect(await sweepEvmDepositAddresses(sweeper({ batchSize: 1 }))).toMatchObject({ sent: 1, forwarders: 1 });
    const [sweep] = await sweeper().store.openSweeps();
    expect(sweep!.forwarders.map((forwarder) => forwarder.address)).toEqual([second]);
    await anvil.creditPaid();
  }, 60_000);

  it('a sweeper killed between storing its sweep and the broadcast: the next run broadcasts the stored sweep, once', async () => {
    const amounts = ['3', '4.5'];
    const { hotBefore, nonce: nonceBefore } = await creditedBeforeSweep(amounts);
    expect(await sweepEvmDepositAddresses(killedBeforeBroadcast())).toMatchObject({ sent: 1 });
    const [stored] = await sweeper().store.openSweeps();
    expect(stored!.nonce).toBe(nonceBefore);
    expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address })).toBe(nonceBefore);
    expect(await usdtOf(anvil.node.hotWallet.address)).toBe(hotBefore);

    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ rebroadcast: 1, sent: 0 });
    // anvil's automine mines just after it answers the broadcast: a receipt read at once can come
    // first on a loaded machine (a clean-clone CI run found none).
    const receipt = await client().waitForTransactionReceipt({ hash: stored!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    expect(receipt.status).toBe('success');
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(sumOf(amounts));
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, cleared: 2 });
    expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address })).toBe(nonceBefore + 1);
  }, 60_000);

  it("a transaction sent from the hot wallet outside Cambio takes a stored sweep's nonce: the sweep fails, and its forwarders go in the next sweep, on a nonce of its own", async () => {
    const amounts = ['2.5', '6'];
    const made = await creditedDeposits(amounts);
    const hotBefore = await usdtOf(anvil.node.hotWallet.address);
    expect(await sweepEvmDepositAddresses(killedBeforeBroadcast())).toMatchObject({ sent: 1 });
    const [stored] = await sweeper().store.openSweeps();
    const byHand = localWalletClient(anvil.node.chain, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }));
    await client().waitForTransactionReceipt({ hash: await byHand.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: 1n, nonce: stored!.nonce }) });
    await mine(CONFIRMATIONS);

    // Its broadcast would be "nonce too low" forever: failed, and the same run sweeps the forwarders again.
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ failed: 1, sent: 1, forwarders: 2, rebroadcast: 0 });
    expect(await new DynamoEvmSweepStore(env.db, env.tableName, NETWORK).finishedSweeps()).toContainEqual(
      expect.objectContaining({ id: stored!.id, status: 'failed', failureReason: 'NONCE_USED_OUTSIDE' }),
    );
    const [again] = await sweeper().store.openSweeps();
    expect(again!.nonce).toBe(stored!.nonce + 1);
    expect(new Set(again!.forwarders.map((forwarder) => forwarder.address))).toEqual(new Set(made.map((deposit) => deposit.address)));
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, cleared: 2 });
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(sumOf(amounts));
  }, 60_000);

  it('a transaction sent from the hot wallet outside Cambio past the sequence: once final, the next sweep starts past it, and lands (not signed on its nonce to fail)', async () => {
    const amounts = ['1.25', '2'];
    const { hotBefore, nonce: used } = await creditedBeforeSweep(amounts);
    const byHand = localWalletClient(anvil.node.chain, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }));
    await client().waitForTransactionReceipt({ hash: await byHand.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: 1n, nonce: used }) });
    await mine(CONFIRMATIONS);

    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1, forwarders: 2, failed: 0 });
    const [sweep] = await sweeper().store.openSweeps();
    expect(sweep!.nonce).toBe(used + 1);
    await client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, failed: 0, cleared: 2 });
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(sumOf(amounts));
  }, 60_000);

  it('a sweep stuck under a fee spike is replaced at a higher fee (same nonce, same call) and lands once; the record ends with the version that landed', async () => {
    const amounts = ['3', '3.5'];
    const made = await creditedDeposits(amounts);
    const hotBefore = await usdtOf(anvil.node.hotWallet.address);
    const node_ = anvil.testClient();
    // The node mines only when told: the sweep waits in its pool, as on a busy chain.
    await node_.setAutomine(false);
    let replaced: EvmSweep;
    let stored: EvmSweep;
    try {
      expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ sent: 1 });
      [stored] = (await sweeper().store.openSweeps()) as [EvmSweep];
      expect(stored.broadcastAt).toEqual(expect.any(String));
      const offered = parseTransaction(stored.signed as TransactionSerialized).maxFeePerGas!;
      await node_.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [toHex(offered * 4n)] as never });
      await mine(1);
      expect(await client().getTransactionReceipt({ hash: stored.txHash as Hash }).catch(() => null)).toBeNull();

      // Before its time it is not replaced (broadcast again as it is: anvil refuses it under the
      // base fee, and the run logs that and leaves it); past its time, replaced.
      expect(await sweepEvmDepositAddresses({ ...sweeper(), replaceAfterMs: 60_000 })).toMatchObject({ replaced: 0, sent: 0 });
      expect(await sweeper().store.openSweeps()).toEqual([expect.objectContaining({ id: stored.id, txHash: stored.txHash })]);
      expect(await sweepEvmDepositAddresses({ ...sweeper(), replaceAfterMs: 60_000, now: () => new Date(Date.now() + 61_000) })).toMatchObject({ replaced: 1, sent: 0 });
      [replaced] = (await sweeper().store.openSweeps()) as [EvmSweep];
      expect(replaced).toMatchObject({ id: stored.id, nonce: stored.nonce, replacedTxHashes: [stored.txHash] });
      expect(parseTransaction(replaced.signed as TransactionSerialized).maxFeePerGas).toBeGreaterThan(offered * 4n);
      await mine(1);
    } finally {
      await node_.setAutomine(true);
    }
    expect((await client().getTransactionReceipt({ hash: replaced.txHash as Hash })).status).toBe('success');
    expect(await client().getTransactionReceipt({ hash: stored.txHash as Hash }).catch(() => null)).toBeNull();
    await mine(CONFIRMATIONS);
    expect(await sweepEvmDepositAddresses(sweeper())).toMatchObject({ done: 1, cleared: 2 });
    expect(await new DynamoEvmSweepStore(env.db, env.tableName, NETWORK).finishedSweeps()).toContainEqual(
      expect.objectContaining({ id: stored.id, status: 'done', txHash: replaced.txHash }),
    );
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(sumOf(amounts));
    for (const deposit of made) expect(await usdtOf(deposit.address)).toBe(0n);
  }, 60_000);

  it('sweeps and withdrawals sent at the same moments never share a nonce, and every payout lands once', async () => {
    const swept = await creditedDeposits(['50', '60', '70']);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const queued = await Promise.all(
      Array.from({ length: 8 }, () =>
        requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } }, companyId, { reference: `w-${Math.random()}`, network: NETWORK, address: to, amount: usdt('2') }, new Date()),
      ),
    );
    const more = await creditedDeposits(['5', '6']);
    const hotBefore = await usdtOf(anvil.node.hotWallet.address);
    // The sweeper batches one forwarder at a time, so it signs as often as the sender does.
    const [sent] = await Promise.all([sendEvmWithdrawals(sender()), (async () => {
      for (let run = 0; run < 5; run++) await sweepEvmDepositAddresses(sweeper({ batchSize: 1 }));
    })()]);
    expect(sent.sent).toBe(8);
    // Blocks mined by the payouts make the first sweeps final meanwhile: some may be settled already.
    const ours = new Set([...swept, ...more].map((deposit) => deposit.address));
    const store = new DynamoEvmSweepStore(env.db, env.tableName, NETWORK);
    const sweeps = [...(await store.openSweeps()), ...(await store.finishedSweeps())].filter((sweep) => ours.has(sweep.forwarders[0]!.address));
    expect(sweeps).toHaveLength(5);
    const nonces = [
      ...(await Promise.all(queued.map(async (withdrawal) => (await getWithdrawal(withdrawals, companyId, withdrawal.id)).transaction!.nonce!))),
      ...sweeps.map((sweep) => sweep.nonce),
    ].sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
    expect(await usdtOf(to)).toBe(usdt('16'));
    expect((await usdtOf(anvil.node.hotWallet.address)) - hotBefore).toBe(usdt('191') - usdt('16'));
    for (const deposit of more) expect(await usdtOf(deposit.address)).toBe(0n);
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender())).toMatchObject({ completed: 8 });
    await sweepEvmDepositAddresses(sweeper());
    expect((await store.finishedSweeps()).filter((sweep) => ours.has(sweep.forwarders[0]!.address)).map((sweep) => sweep.status)).toEqual(Array(5).fill('done'));
  }, 60_000);
});

describe('reconcile per network', () => {
  /** TRON on the sandbox chain in the same table (no TRON money here), bsc on its anvil. */
  const reconcileNow = () => reconcileEvmNetworks(env, anvil.settings, { [NETWORK]: anvil.node.hotWallet.address });
  const onBsc = (result: HoldingsReconciliation) => result.networks.find((network) => network.network === NETWORK)!;
  /**
   * USDT gone from the hot wallet (a treasury move, a theft), written into the token's storage: a
   * transfer signed by the hot wallet outside Cambio would take a nonce its sequence means to use.
   * BSC's BEP20USDT (contracts/usdt/Bep20Usdt.sol) keeps balances in its second slot, a mapping
   * (its owner is the first); the slot read must be the balance.
   */
  async function takeFromHotWallet(amount: bigint) {
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [anvil.node.hotWallet.address, 1n]));
    const held = BigInt((await client().getStorageAt({ address: anvil.node.usdt, slot }))!);
    expect(held).toBe((await usdtOf(anvil.node.hotWallet.address)) * UNIT);
    await anvil.testClient().setStorageAt({ address: anvil.node.usdt, index: slot, value: pad(toHex(held - amount * UNIT)) });
  }
  const expectBalanced = (result: HoldingsReconciliation) => {
    expect(result.balanced, reconciliationReport(result)).toBe(true);
    for (const network of result.networks) expect(network.balanced, reconciliationReport(result)).toBe(true);
    // The networks' figures add up to the total's: one company balance across networks.
    expect(result.networks.reduce((sum, network) => sum + network.owed, 0n)).toBe(result.owed);
  };

  it('balanced on bsc and in total through deposits, a sweep and a withdrawal; USDT removed from the hot wallet is a shortfall on bsc', async () => {
    // The float the hot wallet was funded with, until recorded, is no one's: a surplus on bsc, and in total.
    const unrecorded = await reconcileNow();
    expect(onBsc(unrecorded)).toMatchObject({ difference: HOT_WALLET_USDT * 1_000_000n, mismatch: 'surplus' });
    expect(unrecorded.difference).toBe(HOT_WALLET_USDT * 1_000_000n);
    // Recorded (as npm start records its own), it is Cambio's: balanced. Recorded twice, once.
    const float = hotWalletFloatOf(NETWORK, anvil.node);
    expect(await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), float, new Date())).toBe('recorded');
    expect(await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), float, new Date())).toBe('already_recorded');
    const funded = await reconcileNow();
    expectBalanced(funded);
    expect(funded.treasuryUsdt - unrecorded.treasuryUsdt).toBe(HOT_WALLET_USDT * 1_000_000n);

    await creditedDeposits(['40', '25.5']);
    const credited = await reconcileNow();
    expectBalanced(credited);
    // Every EVM deposit address is read (the earlier tests' too, swept empty): none holds USDT the ledger does not explain.
    expect(onBsc(credited)).toMatchObject({ depositAddressesUsdt: usdt('65.5'), unexplainedUsdt: [] });

    await sweepEvmDepositAddresses(sweeper());
    const swept = await reconcileNow();
    expectBalanced(swept);
    expect(onBsc(swept)).toMatchObject({ depositAddressesUsdt: 0n, hotWalletUsdt: onBsc(credited).hotWalletUsdt + usdt('65.5') });

    const withdrawal = await requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } }, companyId, { reference: `r-${Math.random()}`, network: NETWORK, address: privateKeyToAccount(generatePrivateKey()).address, amount: usdt('10') }, new Date());
    expect(await sendEvmWithdrawals(sender())).toMatchObject({ sent: 1 });
    const inFlight = await reconcileNow();
    expectBalanced(inFlight);
    expect(onBsc(inFlight).inFlightUsdt).toBe(usdt('10'));
    await mine(CONFIRMATIONS);
    await settleEvmWithdrawals(sender());
    await sweepEvmDepositAddresses(sweeper());
    expect((await getWithdrawal(withdrawals, companyId, withdrawal.id)).status).toBe('completed');
    const settled = await reconcileNow();
    expectBalanced(settled);
    // Out on bsc 10 since the sweep: the 1 USDT fee stays there, Cambio's own.
    expect(onBsc(settled)).toMatchObject({ netInflowUsdt: onBsc(swept).netInflowUsdt - usdt('10'), hotWalletUsdt: onBsc(swept).hotWalletUsdt - usdt('10') });
    expect(onBsc(swept).netInflowUsdt - onBsc(funded).netInflowUsdt).toBe(usdt('65.5'));
    expect(onBsc(settled).hotWalletGas).toBeGreaterThan(0n);

    await takeFromHotWallet(7n * 1_000_000n);
    const short = await reconcileNow();
    expect(onBsc(short)).toMatchObject({ difference: -usdt('7'), mismatch: 'shortfall' });
    expect(short.networks.find((network) => network.network === 'tron')).toMatchObject({ balanced: true });
    expect(short).toMatchObject({ difference: -usdt('7'), mismatch: 'shortfall' });
    expect(reconciliationReport(short)).toContain('MISMATCH: -7.000000 USDT (shortfall)');
    expect(reconciliationReport(short)).toMatch(/bsc .*shortfall/);
  }, 60_000);
});

describe("the issuer's fee on a sweep is what the forwarders sent less what the hot wallet received, as the receipt shows it", () => {
  /** Ethereum's Tether token on an anvil of its own: the fee switched on, unlike BEP20USDT's. */
  const ETHEREUM = 'ethereum';
  const tether = useEvmDepositAnvil(env, ETHEREUM, { chainId: 1, usdtDecimals: 6, confirmations: CONFIRMATIONS });
  const issuer = () => evmSandboxIssuer(ETHEREUM, tether.settings.EVM_NETWORKS[ETHEREUM]!);
  const tetherOf = (address: string) => tether.client().readContract({ address: tether.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] });
  async function pay(to: string, amount: string) {
    const hash = await localWalletClient(tether.node.chain, tether.node.customer).writeContract({ address: tether.node.usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [to as Address, parseUnits(amount, 6)] });
    expect((await tether.client().waitForTransactionReceipt({ hash })).status).toBe('success');
  }
  const reconciledEthereum = async () => {
    const result = await reconcileEvmNetworks(env, tether.settings, { [ETHEREUM]: tether.node.hotWallet.address });
    return { result, ethereum: result.networks.find((network) => network.network === ETHEREUM)! };
  };

  beforeAll(async () => {
    // The hot wallet's starting USDT is Cambio's float, recorded so reconcile counts it.
    await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(ETHEREUM, tether.node), new Date());
  });

  it('a payment landing between the plan and the mining (10 bp fee): the fee booked is what the issuer took, and reconcile balances to the unit in flight and settled', async () => {
    await issuer().setFee(10, usdt('40'));
    try {
      const deposit = await createDeposit(deposits, depositSettingsFrom(tether.settings), companyId, { network: ETHEREUM, reference: `fee-${Math.random()}` }, new Date());
      await pay(deposit.address, '100');
      await tether.creditPaid();
      expect(await companyUsdt()).toMatchObject({ available: usdt('99.9') });
      expect((await reconciledEthereum()).ethereum.difference).toBe(0n);

      // The batch is planned on the forwarder's 99.9; 5 more arrive (4.995 after the fee) before the
      // sweep is signed and mined, and its flush moves the whole 104.895.
      const deps = evmSweeperDeps(env, ETHEREUM, tether.settings);
      const signedSweep = deps.payouts.signedSweep.bind(deps.payouts);
      let issuerBefore = 0n;
      deps.payouts = Object.assign(Object.create(deps.payouts) as EvmSweepDeps['payouts'], {
        signedSweep: async (input: Parameters<typeof signedSweep>[0]) => {
          await pay(deposit.address, '5');
          issuerBefore = await tetherOf(tether.node.issuer.address);
          return signedSweep(input);
        },
      });
      const hotBefore = await tetherOf(tether.node.hotWallet.address);
      expect(await sweepEvmDepositAddresses(deps)).toMatchObject({ sent: 1, forwarders: 1 });
      const [sweep] = await deps.store.openSweeps();
      expect(sweep).toMatchObject({ amount: usdt('99.9') });
      await tether.client().waitForTransactionReceipt({ hash: sweep!.txHash as Hash, pollingInterval: 50, timeout: 10_000 });
      const issuerTook = (await tetherOf(tether.node.issuer.address)) - issuerBefore;
      const received = (await tetherOf(tether.node.hotWallet.address)) - hotBefore;
      expect(issuerTook).toBe(104_895n); // 0.1 % of 104.895
      expect(received + issuerTook).toBe(usdt('104.895'));

      // Mined, the payment not yet scanned: its 4.995 is the only difference (a deposit not yet
      // scanned), the fee in flight what the issuer took.
      const mined = await reconciledEthereum();
      expect(mined.ethereum).toMatchObject({ sweepFeesInFlightUsdt: issuerTook, difference: usdt('4.995') });
      // Scanned and credited: balanced to the unit while the sweep is still open.
      await tether.creditPaid();
      expect(await companyUsdt()).toMatchObject({ available: usdt('104.895') });
      const credited = await reconciledEthereum();
      expect(credited.ethereum, reconciliationReport(credited.result)).toMatchObject({ sweepFeesInFlightUsdt: issuerTook, difference: 0n, balanced: true });

      // Settled: the fee booked is what the issuer took, the record keeps what moved.
      expect(await sweepEvmDepositAddresses(evmSweeperDeps(env, ETHEREUM, tether.settings))).toMatchObject({ done: 1 });
      const done = (await new DynamoEvmSweepStore(env.db, env.tableName, ETHEREUM).finishedSweeps()).find((one) => one.id === sweep!.id);
      expect(done).toMatchObject({ status: 'done', amount: usdt('99.9'), moved: usdt('104.895') });
      const fee = (await storedLedgerEntries(env.db, env.tableName, CAMBIO_BOOKS)).map(ledgerEntryItem.fromItem).find((entry) => entry.reference === `token_fee:${ETHEREUM}:${sweep!.txHash}`);
      expect(fee?.postings).toEqual([expect.objectContaining({ destination: `external:${ETHEREUM}`, amount: issuerTook })]);
      const settled = await reconciledEthereum();
      expect(settled.ethereum, reconciliationReport(settled.result)).toMatchObject({ sweepFeesInFlightUsdt: 0n, difference: 0n, balanced: true });
      await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
    } finally {
      await issuer().setFee(0, 0n);
    }
  }, 120_000);

  it('a payment reorganised away between the plan and the mining: the forwarders sent less than planned and no fee is counted that the issuer did not take', async () => {
    // Planned on 105 (a 5 USDT payment since reorganised away, not credited), no fee on: the flush
    // moved the 100 still there, all of it to the hot wallet.
    const forwarder = '0x1111111111111111111111111111111111111111';
    const hotWallet = '0x2222222222222222222222222222222222222222';
    const ledger: LedgerSide = {
      companiesUsdt: usdt('100'),
      treasuryUsdt: 0n,
      netInflowUsdt: { ethereum: usdt('100') },
      processing: [],
      sweepsInFlight: [{ network: 'ethereum', txHashes: ['0xsweep'], amount: usdt('105'), from: [forwarder.toUpperCase().replace('0X', '0x')] }],
      depositAddresses: { ethereum: [forwarder] },
    };
    const result = await reconcileHoldings({
      ledger: async () => ledger,
      networks: [
        {
          network: 'ethereum',
          hotWalletAddress: async () => hotWallet,
          usdtBalances: async (addresses) => new Map(addresses.map((address) => [address, address === hotWallet ? usdt('100') : 0n])),
          receipt: async () => ({ txHash: '0xsweep', blockNumber: 1, result: 'SUCCESS', tokenTransfers: [{ contract: '0xusdt', from: forwarder, to: hotWallet, amount: usdt('100') }] }),
        },
      ],
    });
    expect(result).toMatchObject({ sweepFeesInFlightUsdt: 0n, difference: 0n, balanced: true });
  });
});

describe('hot wallet gas', () => {
  it("below the network's minimum (0.05 BNB on bsc by default): logged as hot wallet gas low and low (the run counts HotWalletGasLow 1); above it, not", async () => {
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    await anvil.testClient().setBalance({ address: poor, value: parseEther('0.01') });
    const warned: Record<string, unknown>[] = [];
    const log = { warn: (message: string, fields?: Record<string, unknown>) => void warned.push({ message, ...fields }) };
    const chain = evmChainOf(NETWORK, anvil.settings);
    expect(await checkHotWalletGas(NETWORK, anvil.settings.EVM_NETWORKS[NETWORK]!, chain, poor, log)).toEqual({ gas: parseEther('0.01'), low: true });
    expect(await checkHotWalletGas(NETWORK, anvil.settings.EVM_NETWORKS[NETWORK]!, chain, anvil.node.hotWallet.address, log)).toMatchObject({ low: false });
    expect(warned).toEqual([expect.objectContaining({ message: 'hot wallet gas low', network: NETWORK, gas: '0.01 BNB', minimum: '0.05 BNB' })]);
  });
});
