import { createTestClient, http, parseUnits, type Address, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DepositJobDeps } from '#functions/deposits/deposit-chain';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits, unknownTransferGoneAfterBlocks } from '#functions/deposits/deposit-confirmation';
import type { EvmNetworkName } from '#functions/networks/evm/settings';
import { evmChains } from '#functions/networks/evm/from-settings';
import { DynamoDepositChainStore, DynamoRescanCursor, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { localPublicClient, localWalletClient } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { anvilNetworkSettings, useAnvilsWithContracts, type AnvilWithContracts } from '../support/anvil.ts';
import { evmDepositSettings, type EvmDepositSettings } from '../support/evm-jobs.ts';
import { useDepositCompany } from '../support/deposit-company.ts';

/**
 * USDT deposits on EVM networks against real anvil nodes: the CREATE2 address handed out offline,
 * the eth_getLogs scanner, crediting once a block is `confirmations` deep, 18 decimals on BSC, and
 * reorganisations made with anvil_reorg (../shared/networks.md).
 */
const CONFIRMATIONS = 3;
const env = useFreshTable();
const nodes = useAnvilsWithContracts({ ethereum: { chainId: 1, usdtDecimals: 6 }, bsc: { chainId: 56, usdtDecimals: 18 } });

// A small maxBlockRange, so that a scan of a few dozen blocks splits its range.
const networkSettings = (node: AnvilWithContracts, chainId: number) => anvilNetworkSettings(node, { chainId, confirmations: CONFIRMATIONS, maxBlockRange: 8 });
let settings: EvmDepositSettings;
const company = useDepositCompany(env, 'EVM Co', () => settings);

beforeAll(async () => {
  settings = evmDepositSettings({ ethereum: networkSettings(nodes.ethereum, 1), bsc: networkSettings(nodes.bsc, 56) });
  for (const network of ['ethereum', 'bsc'] as const) await jobsOn(network).scan();
});

let receiptsRead = 0;

/** `addresses`: the poller's filter, kept across runs; absent, each scan loads one whole. */
function jobsOn(network: EvmNetworkName & keyof typeof nodes, addresses?: DepositAddressFilter) {
  const { chain: node, settings: chainSettings } = evmChains(network).connect(env.db, env.tableName, settings);
  // The node as the jobs see it, counting the receipts they ask for.
  const chain: typeof node = Object.assign(Object.create(node), {
    receipt: (txHash: string) => {
      receiptsRead++;
      return node.receipt(txHash);
    },
  });
  const deps: DepositJobDeps = { network, chain, store: new DynamoDepositChainStore(env.db, env.tableName, network), usdtContract: chainSettings.usdtContract };
  return {
    scan: () => scanDeposits({ ...deps, cursor: new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName), owner: 'scanner', addresses }),
    confirm: () => confirmDeposits(deps),
  };
}

const anvilOf = (node: AnvilWithContracts) => createTestClient({ chain: node.chain, mode: 'anvil', transport: http(node.url) });
const mine = (node: AnvilWithContracts, blocks: number) => anvilOf(node).mine({ blocks });

async function pay(node: AnvilWithContracts, to: string, amount: bigint): Promise<Hex> {
  // transfer(address,uint256): TetherUsdt's on ethereum, Bep20Usdt's (the same call, returning true) on bsc.
  const hash = await localWalletClient(node.chain, node.customer).writeContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [to as Address, amount] });
  await localPublicClient(node.chain).waitForTransactionReceipt({ hash });
  return hash;
}

const { newDeposit, read, usdtBalance } = company;

/** A new ethereum deposit paid `amount` USDT, its payment recorded by a scan (not yet final); the
 * company's balance from before it. */
async function ethereumPaymentRecorded(amount: string) {
  const deposit = await newDeposit('ethereum');
  const before = await usdtBalance();
  await pay(nodes.ethereum, deposit.address, parseUnits(amount, 6));
  const jobs = jobsOn('ethereum');
  expect((await jobs.scan()).recorded).toBe(1);
  return { deposit, before, jobs };
}

describe('EVM deposits on anvil', () => {
  it('an ethereum deposit is a forwarder address with no code; paid, it confirms, then is credited once its block is 3 deep', async () => {
    const deposit = await newDeposit('ethereum');
    expect(deposit.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(deposit.requiredConfirmations).toBe(CONFIRMATIONS);
    expect(await localPublicClient(nodes.ethereum.chain).getCode({ address: deposit.address as Address })).toBeUndefined();
    const before = await usdtBalance();

    // Blocks without payments before it: the scan's range (capped at 8) is split and walked.
    await mine(nodes.ethereum, 20);
    const txHash = await pay(nodes.ethereum, deposit.address, parseUnits('12.5', 6));
    const jobs = jobsOn('ethereum');
    expect((await jobs.scan())).toMatchObject({ recorded: 1, credited: 0 });
    expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('12.5') });
    expect((await read(deposit)).transactions).toEqual([expect.objectContaining({ txHash, status: 'confirming' })]);

    await mine(nodes.ethereum, CONFIRMATIONS);
    const receiptsBefore = receiptsRead;
    expect((await jobs.confirm()).confirmed).toBe(1);
    // Its block still the final chain's: the Transfer log read there is the proof, no receipt asked.
    expect(receiptsRead).toBe(receiptsBefore);
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('12.5') });
    expect((await usdtBalance()).available - before.available).toBe(usdt('12.5'));
    // Scanned again (the overlap) and confirmed again: nothing more.
    expect((await jobs.scan()).recorded).toBe(0);
    expect((await jobs.confirm()).confirmed).toBe(0);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('on BSC (18 decimals) 1.5 USDT and one wei is credited as 1.5 USDT: the wei is dust', async () => {
    const deposit = await newDeposit('bsc');
    await pay(nodes.bsc, deposit.address, parseUnits('1.5', 18) + 1n);
    const jobs = jobsOn('bsc');
    expect((await jobs.scan()).recorded).toBe(1);
    await mine(nodes.bsc, CONFIRMATIONS);
    expect((await jobs.confirm()).confirmed).toBe(1);
    expect(await read(deposit)).toMatchObject({ status: 'completed', receivedAmount: usdt('1.5'), creditedAmount: usdt('1.5') });
  });

  it('a payment already final when first seen (a scanner catching up) is recorded and credited in one write, its events in order', async () => {
    const deposit = await newDeposit('ethereum');
    const before = await usdtBalance();
    const txHash = await pay(nodes.ethereum, deposit.address, parseUnits('4.25', 6));
    await mine(nodes.ethereum, CONFIRMATIONS + 2);
    const jobs = jobsOn('ethereum');
    const receiptsBefore = receiptsRead;

    expect(await jobs.scan()).toMatchObject({ recorded: 1, credited: 1 });
    expect(receiptsRead).toBe(receiptsBefore);
    expect(await read(deposit)).toMatchObject({ status: 'completed', receivedAmount: usdt('4.25'), creditedAmount: usdt('4.25') });
    expect((await read(deposit)).transactions).toEqual([expect.objectContaining({ txHash, status: 'confirmed' })]);
    expect((await usdtBalance()).available - before.available).toBe(usdt('4.25'));
    const events = await company.eventsOf(deposit);
    expect(events.map((event) => event.type)).toEqual(['deposit.confirming', 'deposit.completed']);
    // Nothing left for the confirmer, and the overlap's rescan records nothing again.
    expect((await jobs.confirm()).confirmed).toBe(0);
    expect((await jobs.scan()).recorded).toBe(0);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('with the poller’s kept address filter, a deposit made after it loaded is credited when paid in the next block', async () => {
    const addresses = new DepositAddressFilter(new DynamoDepositChainStore(env.db, env.tableName, 'ethereum'));
    const jobs = jobsOn('ethereum', addresses);
    await mine(nodes.ethereum, 1);
    await jobs.scan();
    const known = addresses.size;
    expect(known).toBeGreaterThan(0);
    const deposit = await newDeposit('ethereum');
    const stranger = `0x${'e5'.repeat(20)}`;
    // The raw topic of this address is lower case: the filter must match it whatever the case.
    expect(deposit.address).toMatch(/[A-F]/);
    await pay(nodes.ethereum, stranger, parseUnits('1', 6));
    await pay(nodes.ethereum, deposit.address, parseUnits('2', 6));
    await mine(nodes.ethereum, 1);

    const scanned = await jobs.scan();
    expect(scanned.recorded).toBe(1);
    // The stranger's payment too (and the earlier tests' still in the 20-block overlap).
    expect(scanned.transfersSeen).toBeGreaterThanOrEqual(2);
    expect(addresses.size).toBe(known + 1);
    expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('2') });
    await mine(nodes.ethereum, CONFIRMATIONS);
    expect((await jobs.confirm()).confirmed).toBe(1);
  });

  it('a payment a provider left out of its logs is found by a rescan of its block, read from a sound node: final, it is credited as it is recorded, once', async () => {
    const deposit = await newDeposit('ethereum');
    const before = await usdtBalance();
    const txHash = await pay(nodes.ethereum, deposit.address, parseUnits('7', 6));
    const paidIn = Number((await localPublicClient(nodes.ethereum.chain).getTransactionReceipt({ hash: txHash })).blockNumber);
    const { chain: node, settings: chainSettings } = evmChains('ethereum').connect(env.db, env.tableName, settings);
    const deps: DepositJobDeps = { network: 'ethereum', chain: node, store: new DynamoDepositChainStore(env.db, env.tableName, 'ethereum'), usdtContract: chainSettings.usdtContract };
    // A provider whose logs lack the payment: the scans read past its block, final, and record nothing.
    const blind: typeof node = Object.assign(Object.create(node), {
      transfers: async (...args: Parameters<typeof node.transfers>) => (await node.transfers(...args)).filter((transfer) => transfer.txHash !== txHash),
    });
    const live = new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName);
    for (let run = 0; run < 2; run++) {
      await mine(nodes.ethereum, 30);
      expect(await scanDeposits({ ...deps, chain: blind, cursor: live, owner: 'scanner' })).toMatchObject({ recorded: 0 });
    }
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });

    // npm run deposits:rescan of its block, read again from a node that has it.
    const rescans = new DynamoRescanCursor(env.db, env.tableName, chainSettings.cursorName);
    expect(await rescans.start(paidIn, paidIn, new Date())).toMatchObject({ result: 'started' });
    expect(await scanDeposits({ ...deps, cursor: rescans, owner: 'rescanner' })).toMatchObject({ scanned: { fromBlock: paidIn, toBlock: paidIn }, recorded: 1, credited: 1, lagBlocks: 0, readThrough: null });
    expect(await read(deposit)).toMatchObject({ status: 'completed', receivedAmount: usdt('7'), creditedAmount: usdt('7'), transactions: [expect.objectContaining({ txHash, status: 'confirmed' })] });
    expect((await usdtBalance()).available - before.available).toBe(usdt('7'));
    expect((await company.eventsOf(deposit)).map((event) => event.type)).toEqual(['deposit.confirming', 'deposit.completed']);
    // Finished: a live scan and a confirmation after it change nothing.
    expect(await scanDeposits({ ...deps, cursor: rescans, owner: 'rescanner' })).toMatchObject({ scanned: null, lagBlocks: null });
    expect((await jobsOn('ethereum').scan()).recorded).toBe(0);
    expect((await jobsOn('ethereum').confirm()).confirmed).toBe(0);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('a payment to an ethereum deposit address made on BSC is not that deposit’s payment', async () => {
    const deposit = await newDeposit('ethereum');
    await pay(nodes.bsc, deposit.address, parseUnits('3', 18));
    await mine(nodes.bsc, CONFIRMATIONS);
    expect((await jobsOn('bsc').scan()).recorded).toBe(0);
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });
  });

  it('a reorganisation that removes the paying block before it is final: never credited, and once the final chain is past it unknown to both views, the deposit awaits payment again', async () => {
    const { deposit, before, jobs } = await ethereumPaymentRecorded('40');
    expect((await usdtBalance()).pending - before.pending).toBe(usdt('40'));

    // The block with the payment is replaced by an empty one. The next scan sees its hash changed,
    // and no node knows the transaction: a provider's machines can say as much of a payment that
    // never moved, so it stays pending, never available, until the final chain decides.
    await anvilOf(nodes.ethereum).request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    await jobs.scan();
    expect(await read(deposit)).toMatchObject({ status: 'confirming', creditedAmount: 0n });
    expect((await usdtBalance()).available).toBe(before.available);
    // Final, and a settling margin past: unknown to both views, the transfer is taken back.
    await mine(nodes.ethereum, CONFIRMATIONS + unknownTransferGoneAfterBlocks('ethereum'));
    await jobs.scan();
    expect(await jobs.confirm()).toMatchObject({ confirmed: 0, dropped: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n, creditedAmount: 0n, transactions: [] });
    expect((await usdtBalance()).pending).toBe(before.pending);
    // The history says what happened: the confirming event, then the reversal.
    const history = await company.eventsOf(deposit);
    expect(history.map((event) => [event.type, (event.data as { status: string }).status])).toEqual([
      ['deposit.confirming', 'confirming'],
      ['deposit.transfer_reversed', 'awaiting_payment'],
    ]);
    // Later runs credit nothing either.
    await mine(nodes.ethereum, 1);
    await jobs.scan();
    expect(await jobs.confirm()).toMatchObject({ confirmed: 0 });
    expect((await usdtBalance()).available).toBe(before.available);
    expect((await read(deposit)).status).toBe('awaiting_payment');
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('a node behind, without the paying block yet, is not a reorganisation: the payment stays confirming and is credited once', async () => {
    const { deposit, before, jobs } = await ethereumPaymentRecorded('25');

    // The provider's next answers for blocks come from a backend that lacks the paying block's height
    // (its head is behind), and knows no receipt of it.
    const { chain: node, settings: chainSettings } = evmChains('ethereum').connect(env.db, env.tableName, settings);
    const recorded = (await read(deposit)).transactions[0]!.blockNumber;
    const behind: typeof node = Object.assign(Object.create(node), {
      blockAt: async (height: number) => (height >= recorded ? null : node.blockAt!(height)),
      receipt: async () => null,
    });
    await mine(nodes.ethereum, 1);
    await scanDeposits({ network: 'ethereum', chain: behind, store: new DynamoDepositChainStore(env.db, env.tableName, 'ethereum'), usdtContract: chainSettings.usdtContract, cursor: new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName), owner: 'scanner' });
    expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('25') });
    expect((await company.eventsOf(deposit)).map((event) => event.type)).toEqual(['deposit.confirming']);

    await mine(nodes.ethereum, CONFIRMATIONS + 1);
    await jobs.scan();
    expect(await jobs.confirm()).toMatchObject({ confirmed: 1 });
    expect((await usdtBalance()).available - before.available).toBe(usdt('25'));
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('a payment re-mined in a later block by a reorganisation is credited once', async () => {
    const deposit = await newDeposit('ethereum');
    const before = await usdtBalance();
    const txHash = await pay(nodes.ethereum, deposit.address, parseUnits('7', 6));
    const client = localPublicClient(nodes.ethereum.chain);
    const raw = (await client.request({ method: 'eth_getRawTransactionByHash' as never, params: [txHash] as never })) as Hex;
    await mine(nodes.ethereum, 1);
    const jobs = jobsOn('ethereum');
    expect((await jobs.scan()).recorded).toBe(1);
    const firstBlock = (await read(deposit)).transactions[0]!.blockNumber;

    // The paying block and the next are replaced, and the same signed transaction is mined in the second.
    await anvilOf(nodes.ethereum).request({ method: 'anvil_reorg' as never, params: [2, [[raw, 1]]] as never });
    await mine(nodes.ethereum, CONFIRMATIONS + 1);
    const moved = await client.getTransactionReceipt({ hash: txHash });
    expect(Number(moved.blockNumber)).toBeGreaterThan(firstBlock);

    await jobs.scan();
    // The record followed the transaction to its new block.
    expect((await read(deposit)).transactions).toEqual([expect.objectContaining({ txHash, blockNumber: Number(moved.blockNumber), status: 'confirming' })]);
    const confirmed = await jobs.confirm();
    await jobs.scan();
    await jobs.confirm();
    expect(confirmed.confirmed).toBe(1);
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('7') });
    expect((await read(deposit)).transactions).toHaveLength(1);
    expect((await usdtBalance()).available - before.available).toBe(usdt('7'));
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  /** The confirmer on ethereum reading through `chain`, a view of the node a test shapes. */
  function confirmThrough(shape: (node: ReturnType<ReturnType<typeof evmChains>['connect']>['chain']) => DepositJobDeps['chain']) {
    const { chain: node, settings: chainSettings } = evmChains('ethereum').connect(env.db, env.tableName, settings);
    return () => confirmDeposits({ network: 'ethereum', chain: shape(node), store: new DynamoDepositChainStore(env.db, env.tableName, 'ethereum'), usdtContract: chainSettings.usdtContract });
  }

  it('a receipt a machine on the abandoned fork gives of the replaced block, at a final height, credits nothing: the transfer waits for the final chain', async () => {
    const { deposit, before, jobs } = await ethereumPaymentRecorded('13');
    const { chain: node } = evmChains('ethereum').connect(env.db, env.tableName, settings);
    const txHash = (await read(deposit)).transactions[0]!.txHash;
    const onTheOldFork = (await node.receipt(txHash))!;

    // The paying block is replaced by an empty one; one of the provider's machines stays on the old
    // fork, and answers the transaction's receipt there. The final chain passes the height.
    await anvilOf(nodes.ethereum).request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    await mine(nodes.ethereum, CONFIRMATIONS + 1);
    const confirm = confirmThrough((sound) => Object.assign(Object.create(sound), { receipt: async (hash: string) => (hash === txHash ? onTheOldFork : sound.receipt(hash)) }));
    expect(await confirm()).toMatchObject({ confirmed: 0, dropped: 0 });
    expect(await read(deposit)).toMatchObject({ status: 'confirming', creditedAmount: 0n });
    expect((await usdtBalance()).available).toBe(before.available);

    // The final chain never had it: once past the settling margin, unknown to the sound views, it is reversed.
    await mine(nodes.ethereum, unknownTransferGoneAfterBlocks('ethereum'));
    await jobs.scan();
    expect(await jobs.confirm()).toMatchObject({ confirmed: 0, dropped: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', creditedAmount: 0n });
    expect((await usdtBalance()).available).toBe(before.available);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });

  it('a transaction re-mined in a block the final chain holds is credited from its receipt, though no scan moved the record there', async () => {
    const deposit = await newDeposit('ethereum');
    const before = await usdtBalance();
    const txHash = await pay(nodes.ethereum, deposit.address, parseUnits('8', 6));
    const raw = (await localPublicClient(nodes.ethereum.chain).request({ method: 'eth_getRawTransactionByHash' as never, params: [txHash] as never })) as Hex;
    await mine(nodes.ethereum, 1);
    expect((await jobsOn('ethereum').scan()).recorded).toBe(1);

    await anvilOf(nodes.ethereum).request({ method: 'anvil_reorg' as never, params: [2, [[raw, 1]]] as never });
    await mine(nodes.ethereum, CONFIRMATIONS + 1);
    const blocksRead: number[] = [];
    const confirm = confirmThrough((sound) => Object.assign(Object.create(sound), { blockAt: (height: number) => (blocksRead.push(height), sound.blockAt!(height)) }));
    expect(await confirm()).toMatchObject({ confirmed: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('8') });
    expect((await usdtBalance()).available - before.available).toBe(usdt('8'));
    // The recorded block's height and the receipt's, once each.
    expect(blocksRead).toHaveLength(new Set(blocksRead).size);
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });
});
