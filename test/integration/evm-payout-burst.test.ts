import { createTestClient, erc20Abi, http, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import type { SliceSettings } from '#functions/settings/functions';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { HOT_WALLET_USDT, hotWalletFloatOf, localPublicClient, localWalletClient } from '#local/evm-contracts';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { anvilNetworkSettings, startAnvilWithContracts } from '../support/anvil.ts';
import { reconcileEvmNetworks } from '../support/evm-jobs.ts';

/**
 * Issue #34's burst: 100 equal withdrawals (one company, one address, one amount) queued at once on
 * polygon, sent by one run of the sender against a real anvil that mines each transaction as it
 * arrives, then settled once final: 100 distinct transactions on 100 consecutive nonces, exactly
 * 100 × the amount received, each completed once, and reconcile balanced before and after. (Two senders
 * racing for nonces: evm-withdrawal-sending.test.ts.)
 */
const NETWORK = 'polygon';
const CONFIRMATIONS = 3;
const PAYOUTS = 100;
const AMOUNT = '1.25';
const env = useFreshTable();
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const hotWalletKey = generatePrivateKey();
const hotWallet = privateKeyToAccount(hotWalletKey);
let node: Awaited<ReturnType<typeof startAnvilWithContracts>>;
let settings: SliceSettings<'chain'>;

/** Reconcile as the job runs it: TRON on the sandbox chain of this table (no TRON money here), polygon on its anvil. */
async function polygonReconciled() {
  const result = await reconcileEvmNetworks(env, settings, { [NETWORK]: hotWallet.address });
  return { total: result, network: result.networks.find((network) => network.network === NETWORK)!, report: reconciliationReport(result) };
}

/** A sender as the withdrawal-sender job builds one. */
function sender(): EvmSendingDeps {
  const chain = evmChainOf(NETWORK, settings);
  return {
    chain,
    payouts: evmPayoutsOf(NETWORK, settings, localEvmSigner(hotWalletKey), chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, NETWORK),
    hotWalletUsdt: () => chain.tokenBalance(node.usdt, hotWallet.address),
  };
}

beforeAll(async () => {
  node = await startAnvilWithContracts({ chainId: 137, usdtDecimals: 6, hotWallet });
  settings = { EVM_NETWORKS: { [NETWORK]: anvilNetworkSettings(node, { chainId: 137, confirmations: CONFIRMATIONS }) } } as SliceSettings<'chain'>;
}, 30_000);

afterAll(async () => {
  await node?.stop();
});

describe(`${PAYOUTS} equal EVM withdrawals queued at once`, () => {
  it('100 distinct transactions on 100 consecutive nonces, exactly 100 × the amount received, each completed once', async () => {
    const { company } = await createCompany(companies, { name: 'EVM Burst Co', environment: 'sandbox' }, new Date());
    // The hot wallet's float, recorded as `npm start` records it, and 1,000 USDT a customer paid
    // that reached the hot wallet (as a swept deposit's would) and credited to the company.
    expect(await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(NETWORK, node), new Date())).toBe('recorded');
    const client = localPublicClient(node.chain);
    await client.waitForTransactionReceipt({
      hash: await localWalletClient(node.chain, node.customer).writeContract({ address: node.usdt, abi: erc20Abi, functionName: 'transfer', args: [hotWallet.address, usdt('1000')] }),
    });
    await creditAvailable(env.db, env.tableName, company.id, 'USDT', '1000', NETWORK);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const rules = { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } };
    const queued: Withdrawal[] = [];
    // Ten at a time: a hundred writes at once to one company's balance would mostly measure retries.
    for (let i = 0; i < PAYOUTS; i++) queued.push(await requestWithdrawal(withdrawals, rules, company.id, { reference: `burst-${i}`, network: NETWORK, address: to, amount: usdt(AMOUNT) }));

    const before = await polygonReconciled();
    expect(before.network.balanced, before.report).toBe(true);
    const deps = sender();
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: PAYOUTS, failed: 0, awaitingFloat: 0 });
    await createTestClient({ chain: node.chain, mode: 'anvil', transport: http(node.url) }).mine({ blocks: CONFIRMATIONS });
    expect(await settleEvmWithdrawals(deps)).toMatchObject({ completed: PAYOUTS, failed: 0, rebroadcast: 0 });
    // Settled once: a second run finds nothing left.
    expect(await settleEvmWithdrawals(deps)).toMatchObject({ completed: 0, rebroadcast: 0 });

    const settled = await Promise.all(queued.map((withdrawal) => getWithdrawal(withdrawals, company.id, withdrawal.id)));
    expect(settled.map((withdrawal) => withdrawal.status)).toEqual(queued.map(() => 'completed'));
    const hashes = settled.map((withdrawal) => withdrawal.txHash as Hash);
    expect(new Set(hashes).size).toBe(PAYOUTS);
    const transactions = await Promise.all(hashes.map((hash) => client.getTransaction({ hash })));
    const nonces = transactions.map((transaction) => transaction.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
    expect(await client.getTransactionCount({ address: hotWallet.address, blockTag: 'pending' })).toBe(nonces.at(-1)! + 1);
    const balanceOf = (address: `0x${string}`) => client.readContract({ address: node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
    expect(await balanceOf(to)).toBe(BigInt(PAYOUTS) * usdt(AMOUNT));
    expect(await balanceOf(hotWallet.address)).toBe(HOT_WALLET_USDT * 10n ** 6n + usdt('1000') - BigInt(PAYOUTS) * usdt(AMOUNT));

    const balance = (await companies.getBalances(company.id)).find((row) => row.currency === 'USDT');
    expect(balance).toMatchObject({ available: usdt('1000') - BigInt(PAYOUTS) * (usdt(AMOUNT) + WITHDRAWAL_RULES.fee), locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);

    // Reconcile: the hot wallet holds exactly what it sent less, the ledger owes exactly that less,
    // nothing is left in flight, and polygon and the total balance to the unit.
    const after = await polygonReconciled();
    expect(after.network.hotWalletUsdt, after.report).toBe(before.network.hotWalletUsdt - BigInt(PAYOUTS) * usdt(AMOUNT));
    expect(after.network.owed, after.report).toBe(before.network.owed - BigInt(PAYOUTS) * usdt(AMOUNT));
    expect(after.network.inFlightUsdt, after.report).toBe(0n);
    expect(after.network.balanced, after.report).toBe(true);
    expect(after.total.balanced, after.report).toBe(true);
  }, 240_000); // 17 s alone; over 90 s in a loaded clean-clone run beside the rest of the suite
});
