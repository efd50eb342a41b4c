import { ETHEREUM_WITHOUT_NODE, TRON_AND_ETHEREUM_DEPOSIT_SETTINGS, TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { STAGES } from '../../config/stages.ts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import type { ChainBlock, ChainReader, TokenTransfer } from '#functions/networks/chain';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import type { DepositChainStore } from '#functions/deposits/deposit-chain';
import { scanDeposits, MAX_BLOCKS_PER_SCAN } from '#functions/deposits/deposit-scan';
import { EXPIRY_SETTLE_MARGIN_MS } from '#functions/networks/chain';
import { confirmDeposits, expireDeposits, expireWhereNotOpen } from '#functions/deposits/deposit-confirmation';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import type { NetworkName } from '#functions/networks/names';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoAllowlistStore } from '#adapters/dynamo/withdrawal-allowlist-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import type { Caller } from '#functions/people/caller';
import { addAllowedAddress, removeAllowedAddress, switchAllowlist, type AllowlistDeps } from '#functions/withdrawals/withdrawal-allowlist';
import type { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { useFreshTable } from '../support/dynamo.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { storedEvents } from '../support/records.ts';
import { BLOCK_MS, ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';
import { sandboxDepositJobs } from '../support/sandbox-deposit-jobs.ts';

const FAKE_USDT = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 777_777);
const PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_888);
const SPLIT_TO = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 999_998);

const env = useFreshTable();
const clock = new ChainClock('2026-11-22T00:00:00.000Z', BLOCK_MS);
const chain = sandboxChainOver(env, clock);
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
let companyId: string;

const { store, deps, cursor, scan, rescans, rescan, settle } = sandboxDepositJobs(env, clock, chain);

async function newDeposit(extra: { amount?: string; split?: { percentBps?: number; amount?: bigint } } = {}): Promise<Deposit> {
  return createDeposit(
    deposits,
    TRON_DEPOSIT_SETTINGS,
    companyId,
    { network: 'tron',
      reference: `ref-${Math.random()}`,
      amount: extra.amount ? usdt(extra.amount) : undefined,
      split: extra.split && { address: SPLIT_TO, ...extra.split },
    },
    clock.now(),
  );
}

const pay = (to: string, amount: string, options: { contract?: string; result?: string } = {}) =>
  chain.submitTransfer({ contract: options.contract ?? USDT, from: PAYER, to, amount: usdt(amount), result: options.result });

const read = (deposit: Deposit) => getDeposit(deposits, companyId, deposit.id);

async function balance() {
  const rows = await companies.getBalances(companyId);
  return rows.find((row) => row.currency === 'USDT')!;
}

const events = () => storedEvents(env.db, env.tableName, companyId);

beforeAll(async () => {
  clock.advanceBlocks(100);
  // The first scan places the cursor at the chain head.
  await scan();
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Chain Co', environment: 'sandbox' }, clock.now()));
});

describe('deposit detection and crediting', () => {
  it('a payment goes awaiting_payment → confirming (pending) → completed (available), once', async () => {
    const deposit = await newDeposit({ amount: '25' });
    const { txHash } = await pay(deposit.address, '25');
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(1);

    const seen = await read(deposit);
    expect(seen).toMatchObject({ status: 'confirming', receivedAmount: usdt('25'), creditedAmount: 0n, amountStatus: null });
    expect(seen.transactions).toEqual([expect.objectContaining({ txHash, amount: usdt('25'), status: 'confirming', confirmations: 1 })]);
    expect(await balance()).toMatchObject({ pending: usdt('25'), available: 0n });

    // Not yet solidified: nothing credited, confirmations counted.
    clock.advanceBlocks(10);
    expect(await confirmDeposits(deps())).toEqual({ confirmed: 0, dropped: 0, waiting: 1, held: 0 });
    expect((await read(deposit)).confirmations).toBe(11);

    expect(await settle()).toEqual({ confirmed: 1, dropped: 0, waiting: 0, held: 0 });
    const done = await read(deposit);
    expect(done).toMatchObject({ status: 'completed', receivedAmount: usdt('25'), creditedAmount: usdt('25'), amountStatus: 'exact' });
    expect(done.transactions[0]!.status).toBe('confirmed');
    expect(await balance()).toMatchObject({ pending: 0n, available: usdt('25') });
    expect((await events()).map((e) => e.type)).toEqual(['deposit.confirming', 'deposit.completed']);
    expect((await events())[1]!.data).toMatchObject({ id: deposit.id, status: 'completed', creditedAmount: '25.000000' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('the same blocks scanned three times and by overlapping scanners credit once', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '10');
    clock.advanceBlocks(1);
    // Two scanners at once: the lease lets one in.
    const [a, b] = await Promise.all([scan('scanner-a'), scan('scanner-b')]);
    expect([a.scanned, b.scanned].filter(Boolean)).toHaveLength(1);
    // Re-scans within the overlap window see the transfer again and record nothing.
    for (let i = 0; i < 3; i++) {
      clock.advanceBlocks(1);
      const again = await scan();
      expect(again.transfersSeen).toBeGreaterThanOrEqual(1);
      expect(again.recorded).toBe(0);
    }
    await settle();
    await settle();
    expect(await balance()).toMatchObject({ available: usdt('10'), pending: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('two transfers to one address are both credited; more than expected is overpaid', async () => {
    const deposit = await newDeposit({ amount: '10' });
    await pay(deposit.address, '6');
    clock.advanceBlocks(2);
    await pay(deposit.address, '7.5');
    clock.advanceBlocks(1);
    await scan();
    expect((await read(deposit)).transactions).toHaveLength(2);
    await settle();
    expect(await read(deposit)).toMatchObject({ status: 'completed', receivedAmount: usdt('13.5'), creditedAmount: usdt('13.5'), amountStatus: 'overpaid' });
    expect(await balance()).toMatchObject({ available: usdt('13.5') });
  });

  it('less than expected completes as underpaid: whatever arrives is credited', async () => {
    const deposit = await newDeposit({ amount: '25' });
    await pay(deposit.address, '20');
    await settle();
    expect(await read(deposit)).toMatchObject({ status: 'completed', amountStatus: 'underpaid', creditedAmount: usdt('20') });
  });

  it('a fake token with the same symbol at another contract is ignored', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '1000', { contract: FAKE_USDT });
    await settle();
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });
    expect(await balance()).toMatchObject({ available: 0n, pending: 0n });
  });

  it('a transfer whose receipt failed is taken back out of pending, nothing credited', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '50', { result: 'REVERT' });
    clock.advanceBlocks(1);
    await scan();
    expect(await balance()).toMatchObject({ pending: usdt('50') });
    expect(await settle()).toMatchObject({ confirmed: 0, dropped: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n, transactions: [] });
    expect(await balance()).toMatchObject({ pending: 0n, available: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a transfer that vanishes in a fork before confirmation is removed from pending, once the final chain is a minute past its block', async () => {
    const deposit = await newDeposit();
    const { txHash } = await pay(deposit.address, '40');
    clock.advanceBlocks(1);
    await scan();
    await chain.dropTransaction(txHash);
    // Its block just final, no node knows it: it may be a node behind, so it waits.
    expect(await settle()).toMatchObject({ dropped: 0, waiting: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'confirming' });
    expect(await settle()).toMatchObject({ dropped: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });
    expect(await balance()).toMatchObject({ pending: 0n, available: 0n });
  });

  it('a final payment whose receipt a lagging node lacks is credited from the final view, never dropped', async () => {
    const deposit = await newDeposit();
    const { txHash } = await pay(deposit.address, '100');
    clock.advanceBlocks(1);
    await scan();
    // TronGrid answers receipts from a full node and the final block from a solidity node: here
    // the full node is behind and does not know the transaction at all.
    const laggingFullNode: SandboxChain = Object.create(chain);
    laggingFullNode.receipt = async (hash: string) => (hash === txHash ? null : chain.receipt(hash));
    laggingFullNode.finalReceipt = (hash: string) => chain.finalReceipt(hash);
    clock.advanceBlocks(40);
    await scan();
    expect(await confirmDeposits({ ...deps(), chain: laggingFullNode })).toMatchObject({ confirmed: 1, dropped: 0 });
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('100') });
    expect(await balance()).toMatchObject({ available: usdt('100'), pending: 0n });
    expect((await events()).map((event) => event.type)).not.toContain('deposit.transfer_reversed');
  });

  it('a final payment that no view of the node knows yet waits rather than being dropped, and is credited once one does', async () => {
    const deposit = await newDeposit();
    const { txHash } = await pay(deposit.address, '30');
    clock.advanceBlocks(1);
    await scan();
    const behind = new Set([txHash]);
    const laggingNodes: SandboxChain = Object.create(chain);
    laggingNodes.receipt = async (hash: string) => (behind.has(hash) ? null : chain.receipt(hash));
    laggingNodes.finalReceipt = async (hash: string) => (behind.has(hash) ? null : chain.finalReceipt(hash));
    clock.advanceBlocks(20);
    await scan();
    // Final, but within a minute of blocks: neither view knowing it may be their lag.
    expect(await confirmDeposits({ ...deps(), chain: laggingNodes })).toMatchObject({ dropped: 0, waiting: 1 });
    behind.clear();
    expect(await settle()).toMatchObject({ confirmed: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('30') });
  });

  it('a payment dropped because no view of the node knew it past finality and a minute is recorded again by a rescan of its block, and credited once', async () => {
    const deposit = await newDeposit();
    const { txHash } = await pay(deposit.address, '30');
    clock.advanceBlocks(1);
    await scan();
    const paidIn = (await chain.receipt(txHash))!.blockNumber;
    // Nodes that never learn the transaction, though it stands on the chain.
    const blind: SandboxChain = Object.create(chain);
    blind.receipt = async (hash: string) => (hash === txHash ? null : chain.receipt(hash));
    blind.finalReceipt = async (hash: string) => (hash === txHash ? null : chain.finalReceipt(hash));
    for (const expected of [{ waiting: 1 }, { dropped: 1 }]) {
      clock.advanceBlocks(20);
      await scan();
      expect(await confirmDeposits({ ...deps(), chain: blind })).toMatchObject(expected);
    }
    expect(await read(deposit)).toMatchObject({ status: 'awaiting_payment', receivedAmount: 0n });
    // Its USDT is still at the address (reconcile's unexplained USDT), in a block the live scan
    // no longer reads: a rescan of that block records it again, and it is credited as any other.
    expect(await rescans.start(paidIn, paidIn, clock.now())).toMatchObject({ result: 'started' });
    expect(await rescan()).toMatchObject({ scanned: { fromBlock: paidIn, toBlock: paidIn }, recorded: 1 });
    expect(await settle()).toMatchObject({ confirmed: 1 });
    expect(await read(deposit)).toMatchObject({ status: 'completed', receivedAmount: usdt('30'), creditedAmount: usdt('30') });
    expect(await balance()).toMatchObject({ available: usdt('30'), pending: 0n });
    expect((await events()).map((event) => event.type)).toEqual(['deposit.confirming', 'deposit.transfer_reversed', 'deposit.confirming', 'deposit.completed']);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('an unpaid deposit expires after 24 h, and late funds are still credited', async () => {
    const deposit = await newDeposit({ amount: '5' });
    // Expired once the chain is read for good past its expiry: the head a settling margin and a block's time after it.
    clock.advance(24 * 60 * 60 * 1000 + EXPIRY_SETTLE_MARGIN_MS + BLOCK_MS);
    // The scanner catches up the day of blocks in bounded runs; the last finds nothing new.
    let caughtUp = await scan();
    while (caughtUp.scanned) caughtUp = await scan();
    expect(caughtUp.readThrough).toBe(new Date(Date.parse((await chain.latestBlock()).timestamp) - EXPIRY_SETTLE_MARGIN_MS).toISOString());
    expect((await expireDeposits(deps(), caughtUp.readThrough)).expired).toBeGreaterThanOrEqual(1);
    expect(await read(deposit)).toMatchObject({ status: 'expired' });
    expect((await events()).map((e) => e.type)).toContain('deposit.expired');

    await pay(deposit.address, '5');
    clock.advanceBlocks(1);
    await scan();
    expect((await read(deposit)).status).toBe('confirming');
    await settle();
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('5'), amountStatus: 'exact' });
  });

  it('a deposit paid before its expiry is never told expired, however late its network is read', async () => {
    const paid = await newDeposit({ amount: '5' });
    const unpaid = await newDeposit({ amount: '5' });
    const ethereum = await createDeposit(deposits, TRON_AND_ETHEREUM_DEPOSIT_SETTINGS, companyId, { network: 'ethereum', reference: `eth-${Math.random()}` }, clock.now());
    clock.advance(24 * 60 * 60 * 1000 - 60_000);
    let caughtUp = await scan();
    while (caughtUp.scanned) caughtUp = await scan();
    // Paid in a block a minute before its expiry, which the node the scanner asks has not reached:
    // its head stays where it was while the clock passes the expiry.
    const before = await chain.latestBlock();
    await pay(paid.address, '5');
    clock.advanceBlocks(1);
    clock.advance(5 * 60_000);
    const lagging: SandboxChain = Object.create(chain);
    lagging.latestBlock = async () => before;
    const behind = await scanDeposits({ ...deps(), chain: lagging, cursor: cursor(), owner: 'scanner-a' });
    expect(behind.readThrough).toBe(new Date(Date.parse(before.timestamp) - EXPIRY_SETTLE_MARGIN_MS).toISOString());
    expect(Date.parse(behind.readThrough!)).toBeLessThan(Date.parse(paid.expiresAt));
    expect((await expireDeposits(deps(), behind.readThrough)).expired).toBe(0);
    expect((await read(paid)).status).toBe('awaiting_payment');
    expect((await read(unpaid)).status).toBe('awaiting_payment');

    // The node catches up: the payment is read, and only the deposit unpaid through its expiry expires.
    const read_ = await scan();
    expect(read_.recorded).toBe(1);
    expect((await expireDeposits(deps(), read_.readThrough)).expired).toBeGreaterThanOrEqual(1);
    expect((await read(paid)).status).toBe('confirming');
    expect((await read(unpaid)).status).toBe('expired');
    // TRON's poller leaves another network's deposit to that network's own, which has not read past it.
    expect((await getDeposit(deposits, companyId, ethereum.id)).status).toBe('awaiting_payment');
    const types = (await events()).filter((e) => (e.data as { id: string }).id === paid.id).map((e) => e.type);
    expect(types).toEqual(['deposit.confirming']);
  });

  it("a payment in a block TronGrid's event index has not reached is read once it has, however far the index trails the node; deposits expire by what the index holds", async () => {
    const paid = await newDeposit({ amount: '4' });
    const unpaid = await newDeposit({ amount: '4' });
    // TronGrid's event database `lag` blocks behind its node: a block read before it is indexed looks empty.
    let lag = 0;
    const trailing: SandboxChain & { indexedThrough(): Promise<{ number: number; timestamp: string } | null> } = Object.create(chain);
    trailing.indexedThrough = async () => {
      const head = await chain.latestBlock();
      return { number: head.number - lag, timestamp: new Date(Date.parse(head.timestamp) - lag * BLOCK_MS).toISOString() };
    };
    trailing.transfers = async (contract: string, fromBlock: number, toBlock: number) => {
      const indexed = (await trailing.indexedThrough())?.number ?? toBlock;
      return indexed < fromBlock ? [] : chain.transfers(contract, fromBlock, Math.min(toBlock, indexed));
    };
    const scanTrailing = () => scanDeposits({ ...deps(), chain: trailing, cursor: cursor(), owner: 'scanner-a' });
    // Paid a minute before its expiry, the index up to date until then; from then on 40 blocks
    // behind (twice the blocks a scan reads again).
    clock.advance(24 * 60 * 60 * 1000 - 60_000);
    let before = await scanTrailing();
    while (before.scanned) before = await scanTrailing();
    await pay(paid.address, '4');
    clock.advanceBlocks(1);
    lag = 40;
    // Runs 30 blocks apart: a scan reading to the node's head would pass the payment's block before
    // the index holds it, and the 20 blocks it reads again would not reach back to it. Each run's
    // expiry reads only as far as the index: neither deposit is judged unpaid before its expiry is indexed.
    const runs = [];
    for (let run = 0; run < 3; run++) {
      if (run > 0) clock.advanceBlocks(30);
      const result = await scanTrailing();
      runs.push(result);
      expect(Date.parse(result.readThrough!)).toBeLessThan(Date.parse(unpaid.expiresAt));
      expect((await expireDeposits(deps(), result.readThrough)).expired).toBe(0);
    }
    expect(runs.map((run) => ({ recorded: run.recorded, lagBlocks: run.lagBlocks }))).toEqual([
      // The cursor waits where the index is not yet (the lag counts from it).
      { recorded: 0, lagBlocks: 1 },
      { recorded: 0, lagBlocks: 31 },
      { recorded: 1, lagBlocks: 40 },
    ]);
    expect(await read(paid)).toMatchObject({ status: 'confirming', receivedAmount: usdt('4') });

    // The index still 40 blocks behind: once it holds blocks past the expiry, the unpaid deposit
    // expires, and only it.
    clock.advanceBlocks(60);
    const later = await scanTrailing();
    expect(later.lagBlocks).toBe(40);
    expect(Date.parse(later.readThrough!)).toBeGreaterThan(Date.parse(unpaid.expiresAt));
    expect((await expireDeposits(deps(), later.readThrough)).expired).toBeGreaterThanOrEqual(1);
    expect((await read(unpaid)).status).toBe('expired');
    expect((await read(paid)).status).toBe('confirming');
    lag = 0;
    await settle();
    expect(await read(paid)).toMatchObject({ status: 'completed', creditedAmount: usdt('4') });

    // An index that cannot say its newest block: the scan reads to the head, as before, and warns.
    const warnings: string[] = [];
    trailing.indexedThrough = async () => null;
    clock.advanceBlocks(5);
    const unsaid = await scanDeposits({ ...deps(), chain: trailing, cursor: cursor(), owner: 'scanner-a', log: { warn: (message) => void warnings.push(message), error: () => {} } });
    expect(unsaid.lagBlocks).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/did not say its newest block: read to the head/)]);
  });

  it('an unpaid deposit whose address holds USDT that no scan recorded is never expired: logged and counted each run, and a rescan of its blocks credits it while new payments go on being credited at once', async () => {
    const deposit = await newDeposit({ amount: '6' });
    // A provider that missed the payment's events: its block read, it looked empty.
    const blind: SandboxChain = Object.create(chain);
    blind.transfers = async (contract: string, fromBlock: number, toBlock: number) => (await chain.transfers(contract, fromBlock, toBlock)).filter((transfer) => transfer.to !== deposit.address);
    const { txHash } = await pay(deposit.address, '6');
    clock.advanceBlocks(1);
    const paidIn = (await chain.receipt(txHash))!.blockNumber;
    // Its runs until the payment's block is past the blocks every scan reads again.
    for (let run = 0; run < 2; run++) {
      await scanDeposits({ ...deps(), chain: blind, cursor: cursor(), owner: 'scanner-a' });
      clock.advanceBlocks(30);
    }
    await scanDeposits({ ...deps(), chain: blind, cursor: cursor(), owner: 'scanner-a' });
    expect((await read(deposit)).status).toBe('awaiting_payment');
    const logged: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    const log = { warn: (message: string, fields?: Record<string, unknown>) => void logged.push({ level: 'warn', message, fields }), error: (message: string, fields?: Record<string, unknown>) => void logged.push({ level: 'error', message, fields }) };
    const usdtAt = (addresses: string[]) => chain.tokenBalances(USDT, addresses);
    const holds = { frozenAddresses: async () => new Set<string>(), sanctioned: async () => new Set<string>(), usdtAt };
    /** The poller's runs from here: a scan to the head, then its expiry. */
    const pollerRun = async () => {
      let caughtUp = await scan();
      while (caughtUp.scanned) caughtUp = await scan();
      return expireDeposits({ ...deps(), holds, log }, caughtUp.readThrough);
    };

    // A day later, the chain read through its expiry: USDT there, not recorded yet (as a payment in
    // the blocks the next scan reads may be), a warning.
    clock.advance(24 * 60 * 60 * 1000 + 2 * 60_000);
    expect(await pollerRun()).toEqual({ expired: 0, unrecordedUsdt: 1 });
    // Ten minutes on, still not recorded: an error, each run.
    clock.advance(10 * 60_000);
    for (let run = 0; run < 2; run++) {
      expect((await pollerRun()).unrecordedUsdt).toBe(1);
      expect((await read(deposit)).status).toBe('awaiting_payment');
    }
    expect(logged.filter((line) => line.fields?.depositId === deposit.id)).toEqual([
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/not recorded yet: not expired/) }),
      expect.objectContaining({ level: 'error', message: expect.stringMatching(/no scan recorded.*deposits:rescan/), fields: expect.objectContaining({ usdtThere: '6.000000', address: deposit.address }) }),
      expect.objectContaining({ level: 'error' }),
    ]);

    // The operator has the blocks around the payment's read again (npm run deposits:rescan), 261
    // of them: two scans. One rescan at a time.
    const liveAt = (await cursor().position())!;
    expect(await rescans.start(paidIn - 250, paidIn + 10, clock.now())).toMatchObject({ result: 'started' });
    expect(await rescans.start(paidIn, paidIn + 1, clock.now())).toEqual({ result: 'in_progress', rescan: { fromBlock: paidIn - 250, nextBlock: paidIn - 250, untilBlock: paidIn + 10, requestedAt: clock.now().toISOString() } });
    // The live scan is not moved back: a payment made now is recorded by its next run.
    const meanwhile = await newDeposit({ amount: '2' });
    await pay(meanwhile.address, '2');
    clock.advanceBlocks(1);
    expect(await scan()).toMatchObject({ recorded: 1, lagBlocks: 0 });
    expect(await cursor().position()).toBeGreaterThan(liveAt);
    // The rescan reads its range, 200 blocks a scan, and records what was missed, once.
    expect(await rescan()).toMatchObject({ scanned: { fromBlock: paidIn - 250, toBlock: paidIn - 51 }, recorded: 0, lagBlocks: 61, readThrough: null });
    expect(await rescan()).toMatchObject({ scanned: { fromBlock: paidIn - 50, toBlock: paidIn + 10 }, recorded: 1, lagBlocks: 0 });
    // Finished: it reads no more, and says so.
    expect(await rescan()).toMatchObject({ scanned: null, recorded: 0, lagBlocks: null });
    expect(await rescans.progress()).toMatchObject({ nextBlock: paidIn + 11, untilBlock: paidIn + 10 });
    // Another rescan of the same blocks records nothing twice.
    expect(await rescans.start(paidIn, paidIn, clock.now())).toMatchObject({ result: 'started' });
    expect(await rescan()).toMatchObject({ scanned: { fromBlock: paidIn, toBlock: paidIn }, recorded: 0 });
    await settle();
    expect(await read(deposit)).toMatchObject({ status: 'completed', creditedAmount: usdt('6') });
    expect(await read(meanwhile)).toMatchObject({ status: 'completed', creditedAmount: usdt('2') });
    expect((await pollerRun()).unrecordedUsdt).toBe(0);
  });

  it("deposits kept from expiring never keep the others from their turn; dust is no payment missed; and a run whose balance reads fail expires nothing", async () => {
    // 110 unpaid deposits whose addresses hold USDT no scan recorded (more than a run checks), 30
    // unpaid and empty, one holding less than 0.01 USDT.
    const stuck = await Promise.all(Array.from({ length: 110 }, () => newDeposit()));
    const empty = await Promise.all(Array.from({ length: 30 }, () => newDeposit()));
    const dusty = await newDeposit();
    let caughtUp = await scan();
    while (caughtUp.scanned) caughtUp = await scan();
    const chainBlind = (await chain.latestBlock()).number;
    for (const deposit of stuck) await pay(deposit.address, '1');
    await pay(dusty.address, '0.005');
    clock.advanceBlocks(1);
    // Their payments' block is passed over (the cursor moved past it by hand, as a scan that missed it would).
    expect(await cursor().acquire('blind', clock.now(), 60_000)).not.toBeNull();
    await cursor().advance('blind', chainBlind + 30);
    await cursor().release('blind');
    clock.advance(24 * 60 * 60 * 1000 + 15 * 60_000);
    caughtUp = await scan();
    while (caughtUp.scanned) caughtUp = await scan();
    const quiet = { warn: () => {}, error: () => {} };
    const usdtAt = (addresses: string[]) => chain.tokenBalances(USDT, addresses);
    const holds = { frozenAddresses: async () => new Set<string>(), sanctioned: async () => new Set<string>(), usdtAt };

    // A run whose reads fail expires nothing and does not fail.
    const failing = { ...holds, usdtAt: async () => Promise.reject(new Error('429 Too Many Requests')) };
    expect(await expireDeposits({ ...deps(), holds: failing, log: quiet }, caughtUp.readThrough)).toEqual({ expired: 0, unrecordedUsdt: 0 });
    expect((await read(empty[0]!)).status).toBe('awaiting_payment');

    // Runs a minute apart: each checks at most its share, the window moving on.
    let unrecorded = 0;
    for (let run = 0; run < 3; run++) {
      unrecorded = Math.max(unrecorded, (await expireDeposits({ ...deps(), holds, log: quiet }, caughtUp.readThrough)).unrecordedUsdt);
      clock.advance(60_000);
    }
    expect(unrecorded).toBeGreaterThan(0);
    for (const deposit of [...empty, dusty]) expect((await read(deposit)).status).toBe('expired');
    for (const deposit of stuck) expect((await read(deposit)).status).toBe('awaiting_payment');
  });

  it('deposits on a network the stage no longer opens expire by the clock, a minute past their expiry; an open network\'s are left to its own poller', async () => {
    const ethereum = await createDeposit(deposits, TRON_AND_ETHEREUM_DEPOSIT_SETTINGS, companyId, { network: 'ethereum', reference: `closed-${Math.random()}` }, clock.now());
    const tron = await newDeposit();
    const storeOf = (network: NetworkName) => new DynamoDepositChainStore(env.db, env.tableName, network);
    const ethereumStatus = async () => (await getDeposit(deposits, companyId, ethereum.id)).status;
    clock.advance(24 * 60 * 60 * 1000 + 30_000);
    // Past its expiry, but not a minute past.
    await expireWhereNotOpen({ storeOf, now: clock.now }, ['tron']);
    expect(await ethereumStatus()).toBe('awaiting_payment');
    clock.advance(31_000);
    // Ethereum open: its own poller's to expire, by its chain.
    await expireWhereNotOpen({ storeOf, now: clock.now }, ['tron', 'ethereum']);
    expect(await ethereumStatus()).toBe('awaiting_payment');
    // Closed: expired, and TRON's own deposit left to TRON's poller.
    expect(await expireWhereNotOpen({ storeOf, now: clock.now }, ['tron'])).toBeGreaterThanOrEqual(1);
    expect(await ethereumStatus()).toBe('expired');
    expect((await read(tron)).status).toBe('awaiting_payment');
    // The scanner back at the head for the tests after this one.
    let caughtUp = await scan();
    while (caughtUp.scanned) caughtUp = await scan();
  });

  it('a split share is held in locked and becomes a pending withdrawal to the split address', async () => {
    const deposit = await newDeposit({ split: { percentBps: 1250 } });
    await pay(deposit.address, '100');
    await settle();
    const done = await read(deposit);
    expect(done.creditedAmount).toBe(usdt('87.5'));
    expect(done.split).toMatchObject({ forwardedAmount: usdt('12.5'), withdrawalId: expect.stringMatching(/^wdr_/) });
    expect(await balance()).toMatchObject({ available: usdt('87.5'), locked: usdt('12.5'), pending: 0n });
    const forward = await new DynamoWithdrawalStore(env.db, env.tableName).getWithdrawal(companyId, done.split!.withdrawalId!);
    expect(forward).toMatchObject({ address: SPLIT_TO, amount: usdt('12.5'), fee: 0n, status: 'pending' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('many deposits paid in one block are recorded and credited in batched writes: each transfer once, the balance their sum', async () => {
    // More deposits than one write carries, a second transfer to one of them in the same block, and
    // every 5th with a 10 % split (a confirmation that also writes a withdrawal).
    const paid = await Promise.all(Array.from({ length: 45 }, (_, i) => newDeposit(i % 5 === 4 ? { split: { percentBps: 1000 } } : {})));
    for (const [i, deposit] of paid.entries()) await pay(deposit.address, `${i + 1}`);
    await pay(paid[0]!.address, '0.5');
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(paid.length + 1);

    const expected = paid.reduce((sum, _, i) => sum + usdt(`${i + 1}`), usdt('0.5'));
    expect(await balance()).toMatchObject({ pending: expected, available: 0n });
    expect((await read(paid[0]!)).receivedAmount).toBe(usdt('1.5'));
    expect((await read(paid[0]!)).transactions).toHaveLength(2);
    for (const [i, deposit] of paid.entries()) if (i > 0) expect((await read(deposit)).receivedAmount).toBe(usdt(`${i + 1}`));
    const seen = (await events()).filter((event) => event.type === 'deposit.confirming');
    expect(seen).toHaveLength(paid.length + 1);
    expect(new Set(seen.map((event) => event.data.id))).toEqual(new Set(paid.map((deposit) => deposit.id)));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);

    // Re-scanned and settled: credited once, the split shares locked for their withdrawals.
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(0);
    expect(await settle()).toMatchObject({ confirmed: paid.length + 1, dropped: 0 });
    const locked = paid.reduce((sum, _, i) => sum + (i % 5 === 4 ? usdt(`${i + 1}`) / 10n : 0n), 0n);
    expect(await balance()).toMatchObject({ pending: 0n, available: expected - locked, locked });
    for (const deposit of paid) expect((await read(deposit)).status).toBe('completed');
    expect((await events()).filter((event) => event.type === 'deposit.completed')).toHaveLength(paid.length);
    expect(await settle()).toMatchObject({ confirmed: 0, dropped: 0 });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a batched write refused because a deposit moved in between is redone one by one: nothing lost, nothing twice', async () => {
    const paid = await Promise.all(Array.from({ length: 3 }, () => newDeposit()));
    for (const deposit of paid) await pay(deposit.address, '2');
    clock.advanceBlocks(1);
    // Another job (the confirmer, say) writes the second deposit between the scanner's read and its write.
    const racing: DepositChainStore = Object.create(store);
    let raced = false;
    racing.applyChanges = async (changes) => {
      if (!raced && changes.length > 1) {
        raced = true;
        const moved = (await store.getDeposit(companyId, paid[1]!.id))!;
        const bump = { before: moved, after: { ...moved, version: moved.version + 1 }, transfer: null, entries: [], events: [], splitForward: null };
        expect(await store.applyChanges([bump])).toBe('applied');
      }
      return store.applyChanges(changes);
    };
    const result = await scanDeposits({ network: 'tron', chain, store: racing, usdtContract: USDT, now: clock.now, cursor: cursor(), owner: 'scanner-a' });
    expect(raced).toBe(true);
    expect(result.recorded).toBe(3);
    for (const deposit of paid) expect(await read(deposit)).toMatchObject({ status: 'confirming', receivedAmount: usdt('2') });
    expect(await balance()).toMatchObject({ pending: usdt('6') });
    expect((await events()).filter((event) => event.type === 'deposit.confirming')).toHaveLength(3);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a transfer still confirming whose count has not moved is left as it is, without reading its deposit again', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '3');
    clock.advanceBlocks(1);
    await scan();
    const before = (await read(deposit))!;
    const counting: DepositChainStore = Object.create(store);
    let reads = 0;
    counting.getDeposit = async (...args) => {
      reads++;
      return store.getDeposit(...args);
    };
    // The chain has not moved since the scan: the confirmations shown are still right.
    // (Earlier tests of this file leave transfers confirming too: none of theirs moved either.)
    const result = await confirmDeposits({ ...deps(), store: counting });
    expect(result).toMatchObject({ confirmed: 0, dropped: 0 });
    expect(result.waiting).toBeGreaterThanOrEqual(1);
    expect(reads).toBe(0);
    expect(await read(deposit)).toEqual(before);
  });

  it('catches up after downtime without skipping a block', async () => {
    const deposit = await newDeposit();
    clock.advanceBlocks(MAX_BLOCKS_PER_SCAN * 2);
    await pay(deposit.address, '3');
    clock.advanceBlocks(MAX_BLOCKS_PER_SCAN);
    let runs = 0;
    while ((await scan()).scanned) runs++;
    expect(runs).toBeGreaterThanOrEqual(3);
    expect((await read(deposit)).receivedAmount).toBe(usdt('3'));
  });

  it('a chain failure mid-scan neither skips the blocks nor holds the lease: the next run picks them up', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '8');
    clock.advanceBlocks(1);
    const failing = Object.create(chain) as SandboxChain;
    failing.transfers = async () => {
      throw new Error('TronGrid unavailable');
    };
    await expect(scanDeposits({ network: 'tron', chain: failing, store, usdtContract: USDT, now: clock.now, cursor: cursor(), owner: 'scanner-a' })).rejects.toThrow('unavailable');
    expect((await read(deposit)).status).toBe('awaiting_payment');

    // Another scanner gets the lease at once (it was released) and finds the transfer.
    const next = await scan('scanner-b');
    expect(next.recorded).toBe(1);
    expect((await read(deposit)).receivedAmount).toBe(usdt('8'));
  });
});

/**
 * A split forwards money as a withdrawal does, so the withdrawal allowlist governs it when the
 * transfer is confirmed, not only when the deposit was made: an address taken off the list since
 * receives nothing more, and its share stays in the company's available balance.
 */
describe('a split under the withdrawal allowlist', () => {
  const allowlist = (): AllowlistDeps => ({
    store: new DynamoAllowlistStore(env.db, env.tableName),
    members: new DynamoTeamStore(env.db, env.tableName),
    contracts: () => [],
    delayMs: 0,
    mailer: null,
    log: { warn: () => undefined, error: () => undefined },
  });
  const owner = (): Caller => ({
    membership: { companyId, personId: 'person-1', email: 'owner@example.com', role: 'Owner', createdAt: clock.now().toISOString() },
    origin: { sourceIp: '203.0.113.9', userAgent: 'test' },
  });
  const withdrawals = () => new DynamoWithdrawalStore(env.db, env.tableName);

  async function allowOnly(address: string) {
    await switchAllowlist(allowlist(), owner(), { enabled: true }, clock.now());
    await addAllowedAddress(allowlist(), owner(), { network: 'tron', address, label: 'Partner' }, clock.now());
  }

  it('forwards while the address is on the list, and keeps the share once it is removed', async () => {
    await allowOnly(SPLIT_TO);
    const first = await newDeposit({ split: { percentBps: 1000 } });
    const second = await newDeposit({ split: { percentBps: 1000 } });
    await pay(first.address, '10');
    await settle();
    const forwarded = await read(first);
    expect(forwarded.split).toMatchObject({ forwardedAmount: usdt('1'), withdrawalId: expect.stringMatching(/^wdr_/) });
    expect(await withdrawals().getWithdrawal(companyId, forwarded.split!.withdrawalId!)).toMatchObject({ address: SPLIT_TO, amount: usdt('1') });

    await removeAllowedAddress(allowlist(), owner(), { network: 'tron', address: SPLIT_TO }, clock.now());
    await pay(second.address, '20');
    const warnings: Record<string, unknown>[] = [];
    clock.advanceBlocks(20);
    await scan();
    expect(await confirmDeposits({ ...deps(), log: { warn: (_, fields) => void warnings.push(fields ?? {}), error: () => undefined } })).toMatchObject({ confirmed: 1 });

    expect(await read(second)).toMatchObject({ status: 'completed', creditedAmount: usdt('20'), split: { forwardedAmount: 0n, withdrawalId: null } });
    expect(await balance()).toMatchObject({ available: usdt('29'), locked: usdt('1'), pending: 0n });
    expect(warnings).toEqual([{ companyId, depositId: second.id, address: SPLIT_TO }]);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('keeps the share when the address is removed between the allowlist read and the write', async () => {
    await allowOnly(SPLIT_TO);
    const deposit = await newDeposit({ split: { percentBps: 5000 } });
    await pay(deposit.address, '10');
    clock.advanceBlocks(20);
    await scan();
    // The Owner removes the address just after the confirmer has read it as allowed.
    const racing: DepositChainStore = Object.create(store);
    let removed = false;
    racing.allowlistFor = async (company, network, address) => {
      const read = await store.allowlistFor(company, network, address);
      if (!removed) {
        removed = true;
        await removeAllowedAddress(allowlist(), owner(), { network: 'tron', address: SPLIT_TO }, clock.now());
      }
      return read;
    };

    expect(await confirmDeposits({ ...deps(), store: racing })).toMatchObject({ confirmed: 1 });

    expect(removed).toBe(true);
    expect(await read(deposit)).toMatchObject({ creditedAmount: usdt('10'), split: { forwardedAmount: 0n, withdrawalId: null } });
    expect(await balance()).toMatchObject({ available: usdt('10'), locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('forwards every split in one batch while the allowlist is off, reading nothing of it: one allowlist check per transaction', async () => {
    const paid = await Promise.all(Array.from({ length: 4 }, () => newDeposit({ split: { percentBps: 2500 } })));
    for (const deposit of paid) await pay(deposit.address, '4');
    const counting: DepositChainStore = Object.create(store);
    let reads = 0;
    counting.allowlistFor = async (company, network, address) => {
      reads++;
      return store.allowlistFor(company, network, address);
    };
    clock.advanceBlocks(20);
    await scan();
    expect(await confirmDeposits({ ...deps(), store: counting })).toMatchObject({ confirmed: 4 });
    expect(reads).toBe(0);
    for (const deposit of paid) expect((await read(deposit)).split).toMatchObject({ forwardedAmount: usdt('1') });
    expect(await balance()).toMatchObject({ available: usdt('12'), locked: usdt('4') });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe('a network whose final block is seconds behind its head (BSC)', () => {
  const BSC_BLOCK_MS = 750;
  const settings = depositSettingsFrom({
    DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
    DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
    EVM_NETWORKS: { bsc: { ...ETHEREUM_WITHOUT_NODE, chainId: 56 } },
    SOLANA: undefined,
    USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT,
  });
  const usdtContract = ETHEREUM_WITHOUT_NODE.usdtContract;
  const bscStore = new DynamoDepositChainStore(env.db, env.tableName, 'bsc');

  it('a payment its provider left out of the logs when first read, 25 blocks below the head, is read again a minute later and recorded', async () => {
    const startMs = clock.epochMs();
    let head = 1_000;
    const blockOf = (number: number): ChainBlock => ({ number, hash: `0x${number.toString(16).padStart(64, '0')}`, timestamp: new Date(startMs + (number - 1_000) * BSC_BLOCK_MS).toISOString() });
    const payments: TokenTransfer[] = [];
    // The provider's logs index trails its node once: the first read of the payment's block comes back without it.
    let trailing = false;
    const bsc: ChainReader = {
      finalityDepth: 64,
      latestBlock: async () => blockOf(head),
      finalBlock: async () => blockOf(head - 2),
      blockAt: async (number) => (number <= head ? blockOf(number) : null),
      transfers: async (contract, fromBlock, toBlock) => {
        const inRange = payments.filter((payment) => payment.contract === contract && payment.blockNumber >= fromBlock && payment.blockNumber <= toBlock);
        if (trailing) {
          trailing = false;
          return [];
        }
        return inRange;
      },
      receipt: async () => null,
      finalReceipt: async () => null,
    };
    const scanBsc = () => scanDeposits({ network: 'bsc', chain: bsc, store: bscStore, usdtContract, now: clock.now, cursor: new DynamoScanCursor(env.db, env.tableName, 'bsc-usdt'), owner: 'scanner-bsc' });
    // The first scan places the cursor at the head.
    await scanBsc();

    const deposit = await createDeposit(deposits, settings, companyId, { network: 'bsc', reference: `bsc-${Math.random()}`, amount: usdt('7') }, clock.now());
    head += 100;
    clock.advance(100 * BSC_BLOCK_MS);
    const paidIn = blockOf(head - 25);
    payments.push({ txHash: `0x${'ab'.repeat(32)}`, eventIndex: 0, blockNumber: paidIn.number, blockHash: paidIn.hash, contract: usdtContract, from: '0x000000000000000000000000000000000000dEaD', to: deposit.address, amount: usdt('7') });
    trailing = true;
    expect((await scanBsc()).recorded).toBe(0);

    // A minute of BSC's blocks on (80): the payment's block, final long since, is read again.
    head += 80;
    clock.advance(80 * BSC_BLOCK_MS);
    expect((await scanBsc()).recorded).toBe(1);
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ creditedAmount: usdt('7') });
  });
});
