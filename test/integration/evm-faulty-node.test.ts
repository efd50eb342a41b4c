import { createTestClient, erc20Abi, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmChains, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import type { EvmNetworkSettings } from '#functions/networks/evm/settings';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import type { SliceSettings } from '#functions/settings/functions';
import type { Log } from '#functions/shared/log';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { hotWalletFloatOf, localPublicClient, localWalletClient } from '#local/evm-contracts';
import { STAGES } from '../../config/stages.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { anvilNetworkSettings, startAnvilWithContracts } from '../support/anvil.ts';
import { startFaultyRpcProxy, type FaultyRpcProxy } from '../support/faulty-rpc-proxy.ts';
import { reconcileEvmNetworks } from '../support/evm-jobs.ts';

/**
 * The node as a provider that errs and lags (../shared/networks.md, "Finality, reorganisations and
 * the node"): the jobs talk to a real anvil through test/support/faulty-rpc-proxy.ts, which answers
 * with JSON-RPC errors, 429s, 500s, hangs past the client's timeout, stale heads, receipts withheld
 * for mined transactions and a backend some blocks behind. Whatever it answers, every payout is
 * made once and every deposit credited once; the chain is read directly (not through the proxy)
 * for what the tests assert.
 */
const NETWORK = 'polygon';
const CHAIN_ID = 137;
const CONFIRMATIONS = 3;
const env = useFreshTable();
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const hotWalletKey = generatePrivateKey();
const hotWallet = privateKeyToAccount(hotWalletKey);
let node: Awaited<ReturnType<typeof startAnvilWithContracts>>;
let direct: EvmNetworkSettings;
const proxies: FaultyRpcProxy[] = [];

const anvil = () => createTestClient({ chain: node.chain, mode: 'anvil', transport: http(node.url) });
const client = () => localPublicClient(node.chain);
const usdtOf = (address: string) => client().readContract({ address: node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] });
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const quiet: Log = { warn: () => {}, error: () => {} };

/** The stage's settings with the network's node at `urls` (the proxies), asked `rpcTimeoutMs` at most each. */
const settingsOver = (urls: string[], rpcTimeoutMs = 1_000) =>
  ({
    DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
    DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
    USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT,
    EVM_NETWORKS: { [NETWORK]: { ...direct, rpcUrl: undefined, rpcUrls: urls, rpcTimeoutMs } },
  }) as unknown as SliceSettings<'chain'> & SliceSettings<'deposits' | 'contracts'>;

/** The withdrawal sender and the deposit poller as their jobs build them, over `urls`. */
function jobsOver(urls: string[], rpcTimeoutMs?: number) {
  const settings = settingsOver(urls, rpcTimeoutMs);
  const chain = evmChainOf(NETWORK, settings);
  const sending: EvmSendingDeps = {
    chain,
    payouts: evmPayoutsOf(NETWORK, settings, localEvmSigner(hotWalletKey.slice(2)), chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, NETWORK),
    hotWalletUsdt: () => chain.tokenBalance(node.usdt, hotWallet.address),
    log: quiet,
  };
  const { chain: depositChain, settings: chainSettings } = evmChains(NETWORK).connect(env.db, env.tableName, settings);
  const depositJob = { network: NETWORK, chain: depositChain, store: new DynamoDepositChainStore(env.db, env.tableName, NETWORK), usdtContract: chainSettings.usdtContract, log: quiet } as const;
  return {
    settings,
    send: () => sendEvmWithdrawals(sending),
    settle: () => settleEvmWithdrawals(sending),
    scan: () => scanDeposits({ ...depositJob, cursor: new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName), owner: 'scanner' }),
    confirm: () => confirmDeposits(depositJob),
  };
}

async function proxy(options: Parameters<typeof startFaultyRpcProxy>[1]): Promise<FaultyRpcProxy> {
  const started = await startFaultyRpcProxy(node.url, options);
  proxies.push(started);
  return started;
}

/**
 * Until `address`'s transactions below nonce `count` are all in blocks, read from the node directly,
 * a block mined every half second; one never mined fails, saying how many were. (The stalls of
 * sessions 22 and 23 were anvil's: see where the customer's transfers are sent.)
 */
async function minedThrough(address: Address, count: number, withinMs = 90_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const mined = await client().getTransactionCount({ address, blockTag: 'latest' });
    if (mined >= count) return;
    if (Date.now() > deadline) throw new Error(`${address} has ${mined} transactions mined of ${count} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await anvil().mine({ blocks: 1 });
  }
}

const rules = { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } };
/** A company with `available` USDT credited, which a customer sent the hot wallet (as a swept deposit's would): reconcile stays balanced. */
async function newCompany(name: string, available: string) {
  const { company } = await createCompany(companies, { name, environment: 'sandbox' }, new Date());
  const customer = localWalletClient(node.chain, node.customer);
  await client().waitForTransactionReceipt({ hash: await customer.writeContract({ address: node.usdt, abi: erc20Abi, functionName: 'transfer', args: [hotWallet.address, usdt(available)] }) });
  await creditAvailable(env.db, env.tableName, company.id, 'USDT', available, NETWORK);
  return company.id;
}
const withdraw = (companyId: string, to: string, amount: bigint, reference = `w-${Math.random()}`): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals, rules, companyId, { reference, network: NETWORK, address: to, amount });

/** Reconcile as the job runs it, reading polygon's anvil directly: TRON on an empty sandbox chain of this table. */
async function reconciled() {
  const result = await reconcileEvmNetworks(env, { EVM_NETWORKS: { [NETWORK]: direct } } as SliceSettings<'chain'>, { [NETWORK]: hotWallet.address });
  return { total: result, network: result.networks.find((network) => network.network === NETWORK)!, report: reconciliationReport(result) };
}

beforeAll(async () => {
  node = await startAnvilWithContracts({ chainId: CHAIN_ID, usdtDecimals: 6, hotWallet });
  direct = anvilNetworkSettings(node, { chainId: CHAIN_ID, confirmations: CONFIRMATIONS });
  // The hot wallet's float as `npm start` records it, so reconcile starts balanced.
  expect(await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(NETWORK, node), new Date())).toBe('recorded');
}, 60_000);

afterAll(async () => {
  await Promise.all(proxies.map((started) => started.stop()));
  await node?.stop();
});

describe('a payout through a node that lacks its receipt', () => {
  it('mined, final, its nonce counted as used, its receipt withheld: not signed again (one transfer on chain), completed once the receipt shows', async () => {
    const faulty = await proxy({ seed: 42, withholdReceipts: 1, withholdReceiptsMs: 3_600_000 });
    const jobs = jobsOver([faulty.url]);
    const companyId = await newCompany('Withheld Receipt Co', '100');
    const to = newAddress();
    const withdrawal = await withdraw(companyId, to, usdt('7'));
    expect(await jobs.send()).toMatchObject({ sent: 1 });
    const sent = await getWithdrawal(withdrawals, companyId, withdrawal.id);
    await anvil().mine({ blocks: CONFIRMATIONS + 2 });
    // The node counts the nonce used in a final block, and answers no receipt for the payout.
    const nonce = sent.transaction!.nonce!;
    expect(await client().getTransactionCount({ address: hotWallet.address, blockNumber: (await client().getBlockNumber()) - BigInt(CONFIRMATIONS) })).toBeGreaterThan(nonce);

    for (let run = 0; run < 3; run++) expect(await jobs.settle()).toMatchObject({ completed: 0, rebroadcast: 0 });
    expect(faulty.counts.receiptWithheld).toBeGreaterThan(0);
    expect(await getWithdrawal(withdrawals, companyId, withdrawal.id)).toMatchObject({ status: 'processing', txHash: sent.txHash, transaction: { nonce } });
    // One transfer: the payee has the amount once, and the wallet sent nothing more.
    expect(await usdtOf(to)).toBe(usdt('7'));
    expect(await client().getTransactionCount({ address: hotWallet.address, blockTag: 'pending' })).toBe(nonce + 1);

    faulty.set({ withholdReceipts: 0, withholdReceiptsMs: 0 });
    expect(await jobs.settle()).toMatchObject({ completed: 1 });
    expect(await getWithdrawal(withdrawals, companyId, withdrawal.id)).toMatchObject({ status: 'completed', txHash: sent.txHash });
    expect(await usdtOf(to)).toBe(usdt('7'));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe('several RPC URLs', () => {
  it('a node that hangs or answers 429 is left for the next: the jobs run on the other, without waiting on the failing one each request', async () => {
    const hanging = await proxy({ seed: 7, hang: 1, hangMs: 10_000 });
    const limited = await proxy({ seed: 8, http429: 1 });
    const healthy = await proxy({ seed: 9 });
    const jobs = jobsOver([hanging.url, limited.url, healthy.url], 300);
    const companyId = await newCompany('Failover Co', '100');
    const to = newAddress();
    const withdrawal = await withdraw(companyId, to, usdt('3'));
    const started = Date.now();
    expect(await jobs.send()).toMatchObject({ sent: 1 });
    await anvil().mine({ blocks: CONFIRMATIONS });
    expect(await jobs.settle()).toMatchObject({ completed: 1 });
    await jobs.scan();
    const elapsed = Date.now() - started;
    expect(await getWithdrawal(withdrawals, companyId, withdrawal.id)).toMatchObject({ status: 'completed' });
    expect(await usdtOf(to)).toBe(usdt('3'));
    // Each failing node was asked about once (a request it failed, then left for a minute), the
    // healthy one everything: dozens of requests did not each wait out a 300 ms timeout.
    expect(hanging.counts.hang ?? 0).toBeLessThanOrEqual(2);
    expect(limited.counts.http429 ?? 0).toBeLessThanOrEqual(2);
    expect(Object.values(healthy.calls).reduce((sum, n) => sum + n, 0)).toBeGreaterThan(10);
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe('200 payouts and 200 deposits through a faulty, lagging node', () => {
  const PAYOUTS = 200;
  const DEPOSITS = 200;

  it('each payout made once, each deposit credited once, the ledger and reconcile balanced', { timeout: 240_000 }, async () => {
    // Two backends: one lagging two blocks and failing in every way, one that fails now and then.
    const lagging = await proxy({ seed: 20260101, lagBlocks: 2, rpcError: 0.03, http429: 0.03, http500: 0.02, hang: 0.01, hangMs: 1_500, staleHead: 0.1, withholdReceipts: 0.3, withholdReceiptsMs: 1_500 });
    const flaky = await proxy({ seed: 20260102, rpcError: 0.02, http429: 0.02, staleHead: 0.05, withholdReceipts: 0.1, withholdReceiptsMs: 1_000 });
    const jobs = jobsOver([lagging.url, flaky.url], 500);
    // Four companies, so that their withdrawals are requested side by side (each writes its balance).
    const companyIds: string[] = [];
    for (const n of [1, 2, 3, 4]) companyIds.push(await newCompany(`Faulty Node Co ${n}`, '250'));
    const companyId = companyIds[0]!;
    const before = await reconciled();
    expect(before.network.balanced, before.report).toBe(true);
    const available = async () => {
      let total = 0n;
      for (const id of companyIds) total += (await companies.getBalances(id)).find((row) => row.currency === 'USDT')!.available;
      return total;
    };
    const startAvailable = await available();

    // 200 payees, each its own amount; 200 deposits, each paid its own amount by the customer.
    const payees = Array.from({ length: PAYOUTS }, (_, i) => ({ to: newAddress(), amount: usdt('1') + BigInt(i) * 10_000n }));
    // Each company's withdrawals one after another, the companies and the deposits side by side.
    const ownerOf = (i: number) => companyIds[i % companyIds.length]!;
    const queueing = Promise.all(
      companyIds.map(async (_, c) => {
        const queued: [number, Withdrawal][] = [];
        for (const [i, { to, amount }] of payees.entries()) if (i % companyIds.length === c) queued.push([i, await withdraw(ownerOf(i), to, amount, `faulty-${i}`)]);
        return queued;
      }),
    ).then((perCompany) => perCompany.flat().sort(([a], [b]) => a - b).map(([, withdrawal]) => withdrawal));
    const depositSettings = depositSettingsFrom(jobs.settings);
    const opened: Deposit[] = [];
    for (let from = 0; from < DEPOSITS; from += 20) {
      opened.push(...(await Promise.all(Array.from({ length: Math.min(20, DEPOSITS - from) }, (_, j) => createDeposit(deposits, depositSettings, companyId, { network: NETWORK, reference: `faulty-deposit-${from + j}` }, new Date())))));
    }
    const paid = opened.map((deposit, i) => ({ deposit, amount: usdt('2') + BigInt(i) * 10_000n }));
    const customer = localWalletClient(node.chain, node.customer);
    // Sent one after another, in nonce order: anvil's automine can leave a transaction that arrives
    // among later nonces in its pool unmined for good, every later one queued behind it (a run here
    // had nonce 114 known to the node, in no block and in neither list of its pool; foundry-rs/foundry
    // issue 10122). The payouts are what this test sends side by side, not the customer's deposits.
    for (const { deposit, amount } of paid) {
      await customer.writeContract({ address: node.usdt, abi: erc20Abi, functionName: 'transfer', args: [deposit.address as Address, amount], gas: 100_000n });
    }
    const firstNonce = (await client().getTransactionCount({ address: node.customer.address, blockTag: 'pending' })) - paid.length;
    await minedThrough(node.customer.address, firstNonce + paid.length);
    const queued = await queueing;
    // The jobs, run over and over as their schedules would, the chain moving a block between runs.
    // A run a fault ends (the node failed past its retries) is simply followed by the next. What is
    // done is read from the records, not summed from the runs' counts: a run a fault ends has
    // written what it settled before the fault, and reports none of it (a CI run counted 137 of
    // 200 so, every withdrawal completed).
    const run = <T>(job: () => Promise<T>): Promise<T | null> => job().catch(() => null);
    let unsettled = queued;
    let uncredited = opened;
    const deadline = Date.now() + 150_000;
    while ((unsettled.length > 0 || uncredited.length > 0) && Date.now() < deadline) {
      // A deposit already final when first seen is credited by the scan itself.
      await run(jobs.scan);
      await run(jobs.confirm);
      await run(jobs.send);
      await run(jobs.settle);
      await anvil().mine({ blocks: 1 });
      unsettled = (await Promise.all(unsettled.map((withdrawal) => getWithdrawal(withdrawals, withdrawal.companyId, withdrawal.id)))).filter((withdrawal) => withdrawal.status !== 'completed');
      uncredited = (await Promise.all(uncredited.map((deposit) => getDeposit(deposits, companyId, deposit.id)))).filter((deposit) => deposit.status !== 'completed');
    }
    // Settled again after all completed: nothing more.
    await anvil().mine({ blocks: CONFIRMATIONS });
    expect(await jobs.settle()).toMatchObject({ completed: 0, rebroadcast: 0 });
    expect({ unsettled: unsettled.map(({ status }) => status), uncredited: uncredited.map(({ status }) => status) }).toEqual({ unsettled: [], uncredited: [] });

    // The proxies did fail, in every way asked of them.
    for (const fault of ['rpcError', 'http429', 'http500', 'hang', 'staleHead', 'receiptWithheld', 'lagged']) expect(lagging.counts[fault] ?? 0, fault).toBeGreaterThan(0);

    // On chain, read directly: each payee received its amount exactly once, and the hot wallet sent
    // exactly 200 transactions (no payout signed twice).
    const received = await Promise.all(payees.map(({ to }) => usdtOf(to)));
    expect(received).toEqual(payees.map(({ amount }) => amount));
    const settledWithdrawals = await Promise.all(queued.map((withdrawal) => getWithdrawal(withdrawals, withdrawal.companyId, withdrawal.id)));
    expect(settledWithdrawals.map((withdrawal) => withdrawal.status)).toEqual(queued.map(() => 'completed'));
    const nonces = settledWithdrawals.map((withdrawal) => withdrawal.transaction!.nonce!).sort((a, b) => a - b);
    expect(await client().getTransactionCount({ address: hotWallet.address, blockTag: 'pending' })).toBe(nonces.at(-1)! + 1);
    expect(new Set(nonces).size).toBe(PAYOUTS);
    const creditedDeposits = await Promise.all(opened.map((deposit) => getDeposit(deposits, companyId, deposit.id)));
    expect(creditedDeposits.map((deposit) => [deposit.status, deposit.creditedAmount])).toEqual(paid.map(({ amount }) => ['completed', amount]));

    // The companies' balances moved by exactly the deposits less the payouts and their fees.
    const sum = (amounts: bigint[]) => amounts.reduce((total, amount) => total + amount, 0n);
    expect((await available()) - startAvailable).toBe(sum(paid.map(({ amount }) => amount)) - sum(payees.map(({ amount }) => amount)) - BigInt(PAYOUTS) * WITHDRAWAL_RULES.fee);
    for (const id of companyIds) {
      expect((await companies.getBalances(id)).find((row) => row.currency === 'USDT')!.locked).toBe(0n);
      await expectLedgerMatchesBalances(env.db, env.tableName, id);
    }
    const after = await reconciled();
    expect(after.network.balanced, after.report).toBe(true);
    expect(after.total.balanced, after.report).toBe(true);
    expect(after.network.hotWalletUsdt - before.network.hotWalletUsdt, after.report).toBe(-sum(payees.map(({ amount }) => amount)));
  });
});
