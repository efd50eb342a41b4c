import { concat, createTestClient, encodeFunctionData, erc20Abi, http, parseGwei, parseUnits, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deposit } from '#functions/deposits/deposits';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { ANVIL_MNEMONIC, anvilAccount, hotWalletFloatOf, localPublicClient, localWalletClient } from '#local/evm-contracts';
import { STAGES } from '../../config/stages.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { anvilNetworkSettings, useAnvilsWithContracts } from '../support/anvil.ts';
import { evmDepositJobs, evmDepositSettings, reconcileEvmNetworks, type EvmDepositSettings } from '../support/evm-jobs.ts';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { evmChains } from '#functions/networks/evm/from-settings';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { useDepositCompany } from '../support/deposit-company.ts';

/**
 * Finality on EVM networks against real anvil nodes (../shared/networks.md, "Finality,
 * reorganisations and the node"): a credit uses the Transfer events of the transaction in the
 * final block, whatever is not final is read again until it is (to the network's finality depth,
 * 64 here as Ethereum's), and reconcile reads every EVM deposit address on every EVM network.
 */
/** Ethereum's finality depth: a block 64 deep is final, and a reorganisation may reach that far. */
const FINALITY = 64;
const env = useFreshTable();
const nodes = useAnvilsWithContracts({ ethereum: { chainId: 1, usdtDecimals: 6 }, polygon: { chainId: 137, usdtDecimals: 6 } });
let settings: EvmDepositSettings;
const company = useDepositCompany(env, 'Finality Co', () => settings);

beforeAll(async () => {
  settings = {
    ...evmDepositSettings({
      ethereum: { ...anvilNetworkSettings(nodes.ethereum, { chainId: 1, confirmations: FINALITY }), finalityDepth: FINALITY },
      polygon: anvilNetworkSettings(nodes.polygon, { chainId: 137, confirmations: 3 }),
    }),
    USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT,
  };
  await jobs().scan();
});

/** The ethereum poller's jobs. */
const jobs = () => evmDepositJobs(env, 'ethereum', settings);

const node = () => nodes.ethereum;
const client = () => localPublicClient(node().chain);
const testClient = () => createTestClient({ chain: node().chain, mode: 'anvil', transport: http(node().url) });
const mine = (blocks: number) => testClient().mine({ blocks });
/** Replaces the newest `depth` blocks with as many new ones, holding these signed transactions at
 * these offsets from the first replaced height. */
const reorganise = (depth: number, transactions: [Hex, number][]) => testClient().request({ method: 'anvil_reorg' as never, params: [depth, transactions] as never });
const rawOf = async (hash: Hex) => (await client().request({ method: 'eth_getRawTransactionByHash' as never, params: [hash] as never })) as Hex;

const { read, usdtBalance } = company;
const newDeposit = () => company.newDeposit('ethereum');
const eventsOf = async (deposit: Deposit) => (await company.eventsOf(deposit)).map((event) => event.type);
const transferCall = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Address, amount] });

/** A USDT transfer by `account`, signed and not sent: for a reorganisation to mine. */
async function signedTransfer(account: ReturnType<typeof mnemonicToAccount>, to: Address, data: Hex, nonce: number): Promise<Hex> {
  return localWalletClient(node().chain, account).signTransaction({ to, data, nonce, gas: 200_000n, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('1'), chain: node().chain });
}

/**
 * A contract payer, as a Safe can be: any call to it calls the USDT contract with the same data and
 * succeeds whether that inner call does or not. Hand-assembled: CALLDATACOPY the call, CALL the
 * token with it, ignore the outcome, STOP; deployed by a constructor that returns that code.
 */
async function deployContractPayer(): Promise<Address> {
  const runtime = concat(['0x366000600037600060003660006000', '0x73', node().usdt, '0x5af100']);
  // PUSH1 39 (the runtime's length), DUP1, PUSH1 11 (where it starts), PUSH1 0, CODECOPY, PUSH1 0, RETURN.
  const initcode = concat(['0x602780600b6000396000f3', runtime]);
  const deployer = localWalletClient(node().chain, anvilAccount.deployer());
  const hash = await deployer.sendTransaction({ data: initcode });
  const { contractAddress } = await client().waitForTransactionReceipt({ hash });
  expect(await client().getCode({ address: contractAddress! })).toBe(runtime.toLowerCase());
  return contractAddress!;
}

describe('a credit uses the Transfer events of the transaction in the final block', () => {
  it.each(['scanner', 'confirmer'] as const)(
    "a deposit's transaction re-mined without its transfer (a contract payer whose inner transfer fails this time) credits nothing, noticed first by the %s",
    async (first) => {
      const deposit = await newDeposit();
      const before = await usdtBalance();
      const payer = await deployContractPayer();
      const customer = anvilAccount.customer();
      await client().waitForTransactionReceipt({ hash: await localWalletClient(node().chain, customer).writeContract({ address: node().usdt, abi: erc20Abi, functionName: 'transfer', args: [payer, parseUnits('100', 6)] }) });
      // The customer asks the payer to pay the deposit: mined, the payer's 100 USDT reach it.
      const paid = await localWalletClient(node().chain, customer).sendTransaction({ to: payer, data: transferCall(deposit.address, parseUnits('100', 6)), gas: 200_000n });
      expect((await client().waitForTransactionReceipt({ hash: paid })).logs).toHaveLength(1);
      const raw = await rawOf(paid);
      await mine(1);
      expect((await jobs().scan()).recorded).toBe(1);
      expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('100') });

      // Reorganised: someone else has the payer spend its USDT first, then the same transaction is
      // mined again, successfully, but the transfer inside it fails and leaves no Transfer event.
      const other = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 5 });
      const drain = await signedTransfer(other, payer, transferCall(`0x${'5a'.repeat(20)}`, parseUnits('100', 6)), await client().getTransactionCount({ address: other.address }));
      await reorganise(2, [
        [drain, 0],
        [raw, 1],
      ]);
      const remined = await client().getTransactionReceipt({ hash: paid });
      expect(remined).toMatchObject({ status: 'success', logs: [] });
      expect(await client().readContract({ address: node().usdt, abi: erc20Abi, functionName: 'balanceOf', args: [deposit.address as Address] })).toBe(0n);

      if (first === 'scanner') await jobs().scan();
      // Final: the receipt now in a final block holds no transfer to the deposit.
      await mine(FINALITY + 1);
      expect((await jobs().confirm()).confirmed).toBe(0);
      await jobs().scan();
      expect((await jobs().confirm()).confirmed).toBe(0);

      expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n, creditedAmount: 0n, transactions: [] });
      expect(await usdtBalance()).toMatchObject({ available: before.available, pending: before.pending });
      expect(await eventsOf(deposit)).toEqual(['deposit.confirming', 'deposit.transfer_reversed']);
      await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
    },
    60_000,
  );
});

describe('whatever is not final is read again until it is', () => {
  it('a reorganisation 40 blocks deep (finality 64) moves one payment and brings in another, 35 blocks deep: each credited exactly once', async () => {
    const [moved, brought] = [await newDeposit(), await newDeposit()];
    const before = await usdtBalance();
    // Empty blocks first: the reorganisation below reaches one block before the first payment.
    await mine(2);
    const customer = anvilAccount.customer();
    const first = await localWalletClient(node().chain, customer).writeContract({ address: node().usdt, abi: erc20Abi, functionName: 'transfer', args: [moved.address as Address, parseUnits('11', 6)] });
    const firstBlock = Number((await client().waitForTransactionReceipt({ hash: first })).blockNumber);
    const raw = await rawOf(first);
    // The customer's next payment, signed now and mined only by the reorganisation below.
    const second = await signedTransfer(customer, node().usdt, transferCall(brought.address, parseUnits('22', 6)), await client().getTransactionCount({ address: customer.address }));
    expect((await jobs().scan()).recorded).toBe(1);
    await mine(38);
    await jobs().scan();
    const head = Number(await client().getBlockNumber());
    expect(head - firstBlock).toBe(38);

    // The newest 40 blocks replaced: the first payment moves 3 blocks later, the second lands in
    // the block after it, 35 blocks below the head: deeper than the 20 blocks the scanner used to
    // read again, in a block it had scanned already.
    await reorganise(40, [
      [raw, 4],
      [second, 5],
    ]);
    const movedTo = Number((await client().getTransactionReceipt({ hash: first })).blockNumber);
    expect(movedTo).toBe(firstBlock + 3);
    expect(head - (movedTo + 1) + 1).toBe(35);
    await mine(1);
    await jobs().scan();
    expect(await read(moved)).toMatchObject({ status: 'confirming', transactions: [expect.objectContaining({ txHash: first, blockNumber: movedTo })] });
    expect(await read(brought)).toMatchObject({ status: 'confirming', receivedAmount: usdt('22'), transactions: [expect.objectContaining({ blockNumber: movedTo + 1 })] });

    await mine(FINALITY);
    expect((await jobs().confirm()).confirmed).toBe(2);
    for (let run = 0; run < 2; run++) {
      expect((await jobs().scan()).recorded).toBe(0);
      expect((await jobs().confirm()).confirmed).toBe(0);
    }
    expect(await read(moved)).toMatchObject({ status: 'completed', creditedAmount: usdt('11'), transactions: [expect.anything()] });
    expect(await read(brought)).toMatchObject({ status: 'completed', creditedAmount: usdt('22'), transactions: [expect.anything()] });
    expect((await usdtBalance()).available - before.available).toBe(usdt('33'));
    expect((await usdtBalance()).pending).toBe(before.pending);
    for (const deposit of [moved, brought]) expect((await eventsOf(deposit)).filter((type) => type === 'deposit.completed')).toHaveLength(1);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  }, 60_000);
});

describe('a provider whose machines disagree', () => {
  it("never has a payment dropped on a node's word (another block at its height, its transaction unknown) while it is deeper than any scan reads again: it stays confirming, and is credited once final", async () => {
    const deposit = await newDeposit();
    const paid = await localWalletClient(node().chain, anvilAccount.customer()).writeContract({ address: node().usdt, abi: erc20Abi, functionName: 'transfer', args: [deposit.address as Address, parseUnits('9', 6)] });
    const block = Number((await client().waitForTransactionReceipt({ hash: paid })).blockNumber);
    expect((await jobs().scan()).recorded).toBe(1);
    // Deeper than the finality depth the scanner reads again (64), and not yet final on a network
    // whose `finalized` trails far (as Arbitrum's waits ~4,800 blocks for Ethereum's): 200 here.
    await mine(FINALITY + 30);
    await jobs().scan();
    // Now one machine answers another block at the payment's height (a stale fork), and the one that
    // answers receipts does not know its transaction (not synced): the chain itself never changed.
    const { chain, settings: stage } = evmChains('ethereum').connect(env.db, env.tableName, settings);
    const disagreeing: typeof chain = Object.create(chain);
    disagreeing.finalBlock = async () => (await chain.blockAt!(Number(await client().getBlockNumber()) - 200))!;
    disagreeing.blockAt = async (height: number) => {
      const real = await chain.blockAt!(height);
      return height === block && real ? { ...real, hash: `0x${'ab'.repeat(32)}` } : real;
    };
    disagreeing.receipt = async (txHash: string) => (txHash === paid ? null : chain.receipt(txHash));
    const deps = { network: 'ethereum' as const, chain: disagreeing, store: new DynamoDepositChainStore(env.db, env.tableName, 'ethereum'), usdtContract: stage.usdtContract };
    const cursor = () => new DynamoScanCursor(env.db, env.tableName, stage.cursorName, stage.previousCursorNames);
    for (let run = 0; run < 3; run++) {
      await mine(30);
      await scanDeposits({ ...deps, cursor: cursor(), owner: 'scanner' });
      expect(await confirmDeposits(deps)).toMatchObject({ confirmed: 0, dropped: 0 });
      expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('9') });
    }
    expect(await eventsOf(deposit)).not.toContain('deposit.transfer_reversed');

    // The machines agree again, and the block is final: credited, once.
    expect((await jobs().confirm()).confirmed).toBe(1);
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('9') });
    expect(await eventsOf(deposit)).toEqual(['deposit.confirming', 'deposit.completed']);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  }, 60_000);
});

describe('EVM reconcile reads every deposit address on every EVM network', () => {
  it('USDT paid to an ethereum deposit address on polygon is reported on polygon as unexplained, by address, and not counted as held (owed to no one, it is no surplus to net against a shortfall); ethereum stays balanced', async () => {
    for (const network of ['ethereum', 'polygon'] as const) await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(network, nodes[network]), new Date());
    const deposit = await newDeposit();
    const onPolygon = localWalletClient(nodes.polygon.chain, anvilAccount.customer());
    await localPublicClient(nodes.polygon.chain).waitForTransactionReceipt({
      hash: await onPolygon.writeContract({ address: nodes.polygon.usdt, abi: erc20Abi, functionName: 'transfer', args: [deposit.address as Address, parseUnits('3', 6)] }),
    });
    const result = await reconcileEvmNetworks(env, settings, { ethereum: nodes.ethereum.hotWallet.address, polygon: nodes.polygon.hotWallet.address });
    const report = reconciliationReport(result);
    const [ethereum, polygon] = (['ethereum', 'polygon'] as const).map((network) => result.networks.find((line) => line.network === network)!);
    expect(polygon, report).toMatchObject({ balanced: true, mismatch: null, unexplainedHeldUsdt: usdt('3'), unexplainedUsdt: [{ address: deposit.address, amount: usdt('3') }] });
    // The earlier tests' credited deposits are the ledger's: nothing unexplained on ethereum.
    expect(ethereum, report).toMatchObject({ balanced: true, unexplainedHeldUsdt: 0n, unexplainedUsdt: [] });
    expect(result).toMatchObject({ balanced: true, mismatch: null, unexplainedHeldUsdt: usdt('3') });
    expect(report).toMatch(/unexplained, not counted\s+3\.000000/);
    expect(report).toContain(deposit.address);
    // Not the deposit's payment: it still awaits one on ethereum.
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });
  }, 60_000);
});
