import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, depositView, type Deposit } from '#functions/deposits/deposits';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { confirmDeposits, releaseHeldTransfer, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import { returnUnfrozen, setAsideFrozen } from '#functions/deposits/frozen-addresses';
import { auditEntry } from '#functions/companies/audit-log';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { DynamoSweepDueList } from '#adapters/dynamo/sweep-due-list';
import { useFreshTable } from '../support/dynamo.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { storedEvents } from '../support/records.ts';
import { BLOCK_MS, ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';
import { sandboxDepositJobs } from '../support/sandbox-deposit-jobs.ts';

/**
 * Money the issuer or the law has stopped (../shared/networks.md, "The token as it is on mainnet"):
 * a payment to a deposit address the issuer froze, or from a sanctioned payer, is recorded but never
 * credited as available; an unfreeze credits it once, and a sanctioned payer's deposit only a
 * person's release does. On TRON's sandbox chain, with its issuer's real freeze list.
 */
const PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_101);
const SANCTIONED_PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_102);

const env = useFreshTable();
const clock = new ChainClock('2026-11-28T00:00:00.000Z', BLOCK_MS);
const chain = sandboxChainOver(env, clock);
const issuer = tronSandboxIssuer(env.db, env.tableName);
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
let companyId: string;

/** The sanctions list as the poller asks it; the screening list's own tests cover its storage. */
const sanctioned = new Set([SANCTIONED_PAYER]);
let frozenReads = 0;
let frozenFails = false;
const holds: DepositHolds = {
  frozenAddresses: async (addresses) => {
    frozenReads++;
    if (frozenFails) throw new Error('node unreachable');
    return chain.frozenAmong(USDT, addresses);
  },
  sanctioned: async (addresses) => new Set(addresses.filter((address) => sanctioned.has(address))),
  usdtAt: (addresses) => chain.usdtBalances(USDT, addresses),
};

const { store, deps, scan, settle } = sandboxDepositJobs(env, clock, chain, { holds });

async function newDeposit(): Promise<Deposit> {
  return createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `ref-${Math.random()}` }, clock.now());
}

const pay = (to: string, amount: string, from = PAYER) => chain.submitTransfer({ contract: USDT, from, to, amount: usdt(amount) });
const read = (deposit: Deposit) => getDeposit(deposits, companyId, deposit.id);
const usdtBalance = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const eventTypes = async () => (await storedEvents(env.db, env.tableName, companyId)).map((event) => event.type);

beforeAll(async () => {
  clock.advanceBlocks(100);
  await scan();
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Held Co', environment: 'sandbox' }, clock.now()));
  frozenFails = false;
});

/** A new deposit paid `amount` by `payer` while the issuer froze its address, the poller run after. */
async function paidWhileFrozen(amount: string, payer: string) {
  const deposit = await newDeposit();
  await issuer.freeze(deposit.address);
  await pay(deposit.address, amount, payer);
  await settle();
  return deposit;
}

describe('a payment to a deposit address the issuer froze', () => {
  it('is held, not available, with deposit.held; unfrozen, it is credited once', async () => {
    const deposit = await newDeposit();
    await issuer.freeze(deposit.address);
    await pay(deposit.address, '40');
    const settled = await settle();
    expect(settled.held).toBe(1);

    const held = await read(deposit);
    expect(depositView(held)).toMatchObject({ status: 'held', holdReason: 'address_frozen', receivedAmount: '40.000000', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, pending: 0n, held: usdt('40') });
    expect(await eventTypes()).toEqual(['deposit.confirming', 'deposit.held']);
    // Still frozen: nothing is released, however often the poller looks.
    expect(await releaseUnfrozen(deps())).toBe(0);
    expect(await releaseUnfrozen(deps())).toBe(0);

    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(1);
    expect(await releaseUnfrozen(deps())).toBe(0);
    expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', holdReason: null, creditedAmount: '40.000000' });
    expect(await usdtBalance()).toMatchObject({ available: usdt('40'), pending: 0n, held: 0n });
    expect(await eventTypes()).toEqual(['deposit.confirming', 'deposit.held', 'deposit.completed']);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('only the frozen address is held: another deposit paid in the same blocks is credited', async () => {
    const [frozen, free] = [await newDeposit(), await newDeposit()];
    await issuer.freeze(frozen.address);
    await pay(frozen.address, '5');
    await pay(free.address, '7');
    await settle();
    expect((await read(frozen)).status).toBe('held');
    expect((await read(free)).status).toBe('completed');
    expect(await usdtBalance()).toMatchObject({ available: usdt('7'), held: usdt('5') });
    await issuer.unfreeze(frozen.address);
    await releaseUnfrozen(deps());
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('when the freeze list cannot be read, nothing is credited unchecked: the transfer waits for the next run', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '3');
    clock.advanceBlocks(20);
    await scan();
    frozenFails = true;
    await expect(confirmDeposits(deps())).rejects.toThrow('node unreachable');
    expect((await read(deposit)).status).toBe('confirming');
    expect(await usdtBalance()).toMatchObject({ available: 0n, pending: usdt('3') });
    frozenFails = false;
    await confirmDeposits(deps());
    expect((await read(deposit)).status).toBe('completed');
  });
});

describe('a payment from a sanctioned address', () => {
  it('is held as sender_sanctioned; an unfreeze does not release it, a person does, once, with an audit entry', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '12', SANCTIONED_PAYER);
    await settle();
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '0.000000' });
    expect(await releaseUnfrozen(deps())).toBe(0);

    const [record] = (await store.heldTransfers()).filter((held) => held.depositId === deposit.id);
    expect(record).toMatchObject({ holdReason: 'sender_sanctioned', from: SANCTIONED_PAYER });
    const audit = () => auditEntry(companyId, 'deposit.released', { personId: null, email: null }, { sourceIp: 'command line', userAgent: null }, clock.now(), deposit.id, { reason: 'cleared by compliance' });
    expect(await releaseHeldTransfer(deps(), record!, audit())).toBe('released');
    expect(await releaseHeldTransfer(deps(), record!, audit())).toBe('not_held');

    expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', holdReason: null, creditedAmount: '12.000000' });
    expect(await usdtBalance()).toMatchObject({ available: usdt('12'), held: 0n });
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records.map((entry) => [entry.action, entry.target, entry.details])).toEqual([['deposit.released', deposit.id, { reason: 'cleared by compliance' }]]);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a sanctioned payer to a frozen address is held for the sanction, which an unfreeze does not lift; cleared by a person while the address is frozen, it stays held for the freeze', async () => {
    const deposit = await paidWhileFrozen('2', SANCTIONED_PAYER);
    expect((await read(deposit)).transactions[0]).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned' });
    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(0);
    expect((await read(deposit)).status).toBe('held');

    // Frozen again, compliance clears the payer: the money still cannot move, so nothing is credited.
    await issuer.freeze(deposit.address);
    const [record] = (await store.heldTransfers()).filter((held) => held.depositId === deposit.id);
    const audit = auditEntry(companyId, 'deposit.released', { personId: null, email: null }, { sourceIp: 'command line', userAgent: null }, clock.now(), deposit.id, { reason: 'cleared by compliance' });
    expect(await releaseHeldTransfer(deps(), record!, audit)).toBe('held_frozen');
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'address_frozen', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('2') });
    expect(await eventTypes()).toEqual(['deposit.confirming', 'deposit.held', 'deposit.held']);
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records.map((entry) => [entry.action, entry.details])).toEqual([['deposit.kept_held', { reason: 'cleared by compliance', keptHeldFor: 'address_frozen' }]]);
    expect(await releaseUnfrozen(deps())).toBe(0);

    // Unfrozen, the poller credits it: the person's decision stands though the payer is still listed.
    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(1);
    expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', holdReason: null, creditedAmount: '2.000000' });
    expect(await usdtBalance()).toMatchObject({ available: usdt('2'), held: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a clean payment credited after a sanctioned one is held: the deposit stays held, and its deposit.held carries the credit', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '5', SANCTIONED_PAYER);
    clock.advanceBlocks(1);
    await pay(deposit.address, '3');
    await settle();
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '3.000000' });
    expect(await usdtBalance()).toMatchObject({ available: usdt('3'), held: usdt('5') });
    const events = await storedEvents(env.db, env.tableName, companyId);
    // The hold, then the credit: the last status the deposit came to has an event with what it holds.
    expect(events.filter((event) => event.type === 'deposit.held').map((event) => event.data.creditedAmount)).toEqual(expect.arrayContaining(['0.000000', '3.000000']));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it("a person's release of a frozen-address hold whose payer is listed since does not credit it: it stays held, for the sanction", async () => {
    const laterListed = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_104);
    const deposit = await paidWhileFrozen('40', laterListed);
    sanctioned.add(laterListed);
    const held = async () => (await store.heldTransfers()).find((record) => record.depositId === deposit.id)!;
    const audit = () => auditEntry(companyId, 'deposit.released', { personId: null, email: null }, { sourceIp: 'command line', userAgent: null }, clock.now(), deposit.id, { reason: 'the freeze is not ours to wait on' });

    expect(await releaseHeldTransfer(deps(), await held(), audit())).toBe('held_sanctioned');
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('40') });
    // Released again, it is a decision on the sanction: the address still frozen, it stays held for the freeze.
    expect(await releaseHeldTransfer(deps(), await held(), audit())).toBe('held_frozen');
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('40') });
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records.map((entry) => [entry.action, entry.details?.keptHeldFor])).toEqual([['deposit.kept_held', 'address_frozen'], ['deposit.kept_held', 'sender_sanctioned']]);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a frozen-address hold whose payer is sanctioned while held is not credited by the unfreeze: it stays held for the sanction', async () => {
    const laterListed = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_103);
    const deposit = await paidWhileFrozen('40', laterListed);
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'address_frozen' });

    // A screening refresh lists the payer, then the issuer unfreezes the address.
    sanctioned.add(laterListed);
    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(0);

    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('40') });
    expect((await eventTypes()).filter((type) => type === 'deposit.held')).toHaveLength(2);
    expect(await store.heldTransfers()).toEqual(expect.arrayContaining([expect.objectContaining({ depositId: deposit.id, holdReason: 'sender_sanctioned' })]));
    // Run again, nothing changes: no second event, nothing credited.
    expect(await releaseUnfrozen(deps())).toBe(0);
    expect((await eventTypes()).filter((type) => type === 'deposit.held')).toHaveLength(2);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe('npm run deposits:release', () => {
  const release = (args: string[]) => runOpsCommand('ops/deposits-release.ts', args, { DYNAMODB_ENDPOINT: env.endpoint });

  it('credits a held deposit once, with its audit entry; run again, it says nothing is held', async () => {
    const deposit = await newDeposit();
    await pay(deposit.address, '9', SANCTIONED_PAYER);
    await settle();
    expect((await read(deposit)).status).toBe('held');

    const first = await release(['--deposit', deposit.id, '--reason', 'cleared by compliance: ticket 42', '--table', env.tableName, '--json']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      depositId: deposit.id,
      released: [{ network: 'tron', txHash: expect.any(String), amount: '9.000000', holdReason: 'sender_sanctioned' }],
      keptHeld: [],
    });
    const again = await release(['--deposit', deposit.id, '--reason', 'cleared by compliance: ticket 42', '--table', env.tableName]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Nothing held');

    expect(await usdtBalance()).toMatchObject({ available: usdt('9'), held: 0n });
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ action: 'deposit.released', target: deposit.id, details: { reason: 'cleared by compliance: ticket 42', holdReason: 'sender_sanctioned' } });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it("clearing a sanctioned payer while the issuer freezes the address keeps the money held for the freeze, and says so; the unfreeze credits it", async () => {
    const deposit = await paidWhileFrozen('6', SANCTIONED_PAYER);

    const run = await release(['--deposit', deposit.id, '--reason', 'cleared by compliance: ticket 43', '--table', env.tableName]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Kept held 6.000000 USDT of ${deposit.id} on tron (held: sender_sanctioned;`);
    expect(run.stdout).toContain("USDT's issuer freezes the deposit address");
    expect(run.stdout).toContain('Now held: address_frozen');
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held', holdReason: 'address_frozen', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('6') });
    // Audited as what it is: the money kept held, not released.
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records).toMatchObject([{ action: 'deposit.kept_held', target: deposit.id, details: { reason: 'cleared by compliance: ticket 43', holdReason: 'sender_sanctioned', keptHeldFor: 'address_frozen' } }]);

    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(1);
    expect(await usdtBalance()).toMatchObject({ available: usdt('6'), held: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('clearing a sanctioned payer does not give back a credit the freeze took back, nor credit a payment held for the freeze, while the address is frozen: kept held, audited as such, credited once unfrozen', async () => {
    // A clean payment credited, then the issuer freezes the address and the sweeper takes the credit back.
    const deposit = await newDeposit();
    await pay(deposit.address, '100');
    await settle();
    expect(await usdtBalance()).toMatchObject({ available: usdt('100'), held: 0n });
    await issuer.freeze(deposit.address);
    const sweepLists = new DynamoSweepDueList(env.db, env.tableName, 'tron');
    const frozenAmong = (addresses: string[]) => chain.frozenAmong(USDT, addresses);
    const usdtAt = (addresses: string[]) => chain.usdtBalances(USDT, addresses);
    await setAsideFrozen(sweepLists, frozenAmong, [deposit.address], usdtAt);
    expect(await read(deposit)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('100') });
    // A clean payer pays the frozen address (held for the freeze), then a sanctioned one.
    await pay(deposit.address, '4');
    await settle();
    await pay(deposit.address, '6', SANCTIONED_PAYER);
    await settle();
    expect(depositView(await read(deposit))).toMatchObject({ status: 'held' });
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('110') });

    const run = await release(['--deposit', deposit.id, '--reason', 'payer cleared by compliance: ticket 44', '--table', env.tableName, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      depositId: deposit.id,
      released: [],
      keptHeld: expect.arrayContaining([
        { network: 'tron', txHash: expect.any(String), amount: '4.000000', holdReason: 'address_frozen', keptHeldFor: 'address_frozen' },
        { network: 'tron', txHash: expect.any(String), amount: '6.000000', holdReason: 'sender_sanctioned', keptHeldFor: 'address_frozen' },
        { network: 'tron', txHash: null, amount: '100.000000', holdReason: 'address_frozen', keptHeldFor: 'address_frozen' },
      ]),
    });
    expect(JSON.parse(run.stdout).keptHeld).toHaveLength(3);
    // The freeze is not decided: nothing that cannot move is available.
    expect(await usdtBalance()).toMatchObject({ available: 0n, held: usdt('110') });
    expect(await read(deposit)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('100') });
    const log = await new DynamoAuditLogStore(env.db, env.tableName).auditPage(companyId, { limit: 10 });
    expect(log.records.map((entry) => [entry.action, entry.target, entry.details?.keptHeldFor])).toEqual([['deposit.kept_held', deposit.id, 'address_frozen']]);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);

    // Unfrozen: the poller credits the payment, the sweeper gives the credit back.
    await issuer.unfreeze(deposit.address);
    expect(await releaseUnfrozen(deps())).toBe(2);
    await returnUnfrozen(sweepLists, frozenAmong, usdtAt);
    expect(await usdtBalance()).toMatchObject({ available: usdt('110'), held: 0n });
    expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', creditedAmount: '110.000000' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('refuses bad usage with exit 2 and writes nothing', async () => {
    for (const args of [[], ['--deposit', 'dep_nope', '--reason', 'because'], ['--deposit', 'dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5'], ['--deposit', 'dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5', '--reason', 'ok', '--bogus']]) {
      const run = await release([...args, '--table', env.tableName]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: npm run deposits:release');
    }
    // A deployed stage's table read with the local stage's chain would find no freeze.
    const deployed = await release(['--deposit', 'dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5', '--reason', 'because', '--table', 'Cambio-production-DataTable']);
    expect(deployed.status).toBe(2);
    expect(deployed.stderr).toContain('is the production stage\'s table: add --stage production');
  });
});

describe('a split whose address was listed after the deposit was made', () => {
  it('forwards nothing there: the whole payment is credited to the company', async () => {
    const listedLater = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_103);
    const deposit = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `split-${Math.random()}`, split: { address: listedLater, percentBps: 5_000 } }, clock.now());
    sanctioned.add(listedLater);
    try {
      await pay(deposit.address, '20');
      await settle();
      expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', creditedAmount: '20.000000', split: { forwardedAmount: '0.000000', withdrawalId: null } });
      expect(await usdtBalance()).toMatchObject({ available: usdt('20'), locked: 0n });
    } finally {
      sanctioned.delete(listedLater);
    }
  });
});

// Last in the file: the deprecation stays for the rest of this table's life.
describe('a deprecation on TRON', () => {
  it('payments through the old contract and through the upgraded one are both credited', async () => {
    const before = await newDeposit();
    await pay(before.address, '1');
    await settle();
    const { upgradedContract } = await issuer.deprecate();
    const [throughOld, throughNew] = [await newDeposit(), await newDeposit()];
    await pay(throughOld.address, '2');
    await chain.submitTransfer({ contract: upgradedContract, from: PAYER, to: throughNew.address, amount: usdt('3') });
    await settle();
    for (const [deposit, amount] of [[before, '1.000000'], [throughOld, '2.000000'], [throughNew, '3.000000']] as const) {
      expect(depositView(await read(deposit))).toMatchObject({ status: 'completed', creditedAmount: amount });
    }
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});
