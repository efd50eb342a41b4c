import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { HdDepositKeySigner } from '#functions/networks/tron/deposit-key-signer';
import { createCompany } from '#functions/companies/company';
import { createDeposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits, releaseHeldTransfer, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import { returnUnfrozen, reviewFrozenAddresses, usdtAtEach } from '#functions/deposits/frozen-addresses';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { auditEntry } from '#functions/companies/audit-log';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendWithdrawals, settleWithdrawals, type SendingDeps } from '#functions/networks/tron/withdrawal-sending';
import { FAILURES_BEFORE_BACKOFF, RECLAIM_ATTEMPTS, RECLAIM_FEE_ALLOWANCE_SUN, sweepDepositAddresses } from '#functions/networks/tron/sweeps';
import { reconcileHoldings, reconciliationReport, type ReconciliationSources } from '#functions/ledger/reconciliation';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { depositAddressItem } from '#adapters/dynamo/items/deposit-address';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoSweepStore } from '#functions/networks/tron/sweep-store';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { FloatRefused, fundedFloat, recordHotWalletFloat } from '#functions/ledger/floats';
import { SANDBOX_FEES } from '#functions/networks/tron/sandbox-balances';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { SANDBOX_FAILING_ADDRESS, SANDBOX_TRX } from '#functions/networks/tron/sandbox-chain';
import { TRANSACTION_LIFETIME_MS } from '#functions/networks/tron/tron-transfer-builder';
import { EXPIRY_SETTLE_MARGIN_MS } from '#functions/networks/chain';
import { expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { BLOCK_MS, failingBroadcaster, sandboxChainWithHotWallet, sandboxSending, sandboxSweeping, sandboxTransferBuilder, USDT } from '../support/sandbox-chain-jobs.ts';


const { env, clock, hotWallet, chain } = sandboxChainWithHotWallet('2026-11-22T00:00:00.000Z');
const builder = sandboxTransferBuilder(chain);
let companyId: string;

const sending: SendingDeps = sandboxSending(env, chain, hotWallet, clock, {
  builder,
  // As the sender job does: the sandbox chain keeps balances, so nothing leaves before the sweeps bring the USDT.
  hotWalletUsdt: async () => chain.tokenBalance(USDT, await hotWallet.address()),
});
const sweeping = sandboxSweeping(env, chain, hotWallet, clock, { minimumSweep: usdt('1'), feeTopUp: 15_000_000n }, builder);
/** As `npm run reconcile` on the sandbox: every deposit address is read. */
const tronSources = { network: 'tron' as const, usdtBalances: (addresses: string[]) => chain.tokenBalances(USDT, addresses), receipt: (txHash: string) => chain.receipt(txHash), hotWalletAddress: () => hotWallet.address() };
const sources: ReconciliationSources = { ledger: () => ledgerSide(env.db, env.tableName, { every: ['tron'] }), networks: [tronSources] };
/** As the job on TronGrid: only the addresses the ledger lists as possibly holding USDT. */
const unsweptSources: ReconciliationSources = { ...sources, ledger: () => ledgerSide(env.db, env.tableName, 'unswept') };
/** Both readings, which must agree while every transfer on chain has been scanned. */
async function reconcileBoth() {
  const every = await reconcileHoldings(sources);
  const unswept = await reconcileHoldings(unsweptSources);
  expect(unswept.balanced, reconciliationReport(unswept)).toBe(every.balanced);
  expect(unswept.depositAddressesUsdt).toBe(every.depositAddressesUsdt);
  return every;
}
const depositJobs = () => ({ network: 'tron' as const, chain, store: new DynamoDepositChainStore(env.db, env.tableName, 'tron'), usdtContract: USDT, now: clock.now });
const scan = () => scanDeposits({ ...depositJobs(), cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner' });
/** Every chain job once, then enough blocks for what they sent to solidify. */
async function runJobs() {
  await scan();
  await confirmDeposits(depositJobs());
  await sendWithdrawals(sending);
  await settleWithdrawals(sending);
  const swept = await sweepDepositAddresses(sweeping);
  clock.advanceBlocks(20);
  return swept;
}

/**
 * What earlier tests left is settled and swept first, so the sweeper sees one due address: a new
 * deposit paid `amount` and confirmed (not yet swept).
 */
async function confirmedDepositAlone(reference: string, amount: string) {
  // A sweep's top-up, transfer and TRX reclaim, then the run its reclaim lands in, which clears its address.
  for (let i = 0; i < 4; i++) await runJobs();
  const deposits = new DynamoDepositStore(env.db, env.tableName);
  const deposit = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference }, clock.now());
  await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_100), to: deposit.address, amount: usdt(amount) });
  clock.advanceBlocks(1);
  // The scanner reads a bounded number of blocks a run: after an hour on the clock, several runs.
  while (((await scan()).lagBlocks ?? 0) > 0);
  clock.advanceBlocks(20);
  await confirmDeposits(depositJobs());
  return deposit;
}

beforeAll(async () => {
  clock.advanceBlocks(30);
  await scan();
  ({ company: { id: companyId } } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Treasury Co', environment: 'sandbox' }, clock.now()));
});

describe('sweeps and reconciliation', () => {
  it('deposits, a split, withdrawals (one failing) and sweeps leave the wallets matching the ledger to the unit', async () => {
    const deposits = new DynamoDepositStore(env.db, env.tableName);
    const settings = TRON_DEPOSIT_SETTINGS;
    const splitTo = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_001);
    const a = await createDeposit(deposits, settings, companyId, { network: 'tron', reference: 'a', split: { address: splitTo, percentBps: 1000 } }, clock.now());
    const b = await createDeposit(deposits, settings, companyId, { network: 'tron', reference: 'b' }, clock.now());
    const payer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_002);
    await chain.submitTransfer({ contract: USDT, from: payer, to: a.address, amount: usdt('100') });
    await chain.submitTransfer({ contract: USDT, from: payer, to: b.address, amount: usdt('50') });
    // Seen but unconfirmed money is on chain and in `pending`: already balanced.
    clock.advanceBlocks(1);
    await scan();
    expect((await reconcileBoth()).balanced).toBe(true);

    // Confirmed, swept to the hot wallet, and only then (the float) the split forward sent and settled.
    for (let i = 0; i < 5; i++) await runJobs();
    const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
    await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: 'out-1', address: payer, amount: usdt('30') }, clock.now());
    await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: 'out-2', address: SANDBOX_FAILING_ADDRESS, amount: usdt('5') }, clock.now());

    // Sent and mined, not yet settled: counted as in flight (the failing one moved nothing; the
    // split forward was sent and settled by the runs above).
    await sendWithdrawals(sending);
    clock.advanceBlocks(2);
    const inFlight = await reconcileBoth();
    expect(inFlight.inFlightUsdt).toBe(usdt('30'));
    expect(inFlight.balanced, reconciliationReport(inFlight)).toBe(true);

    for (let i = 0; i < 4; i++) await runJobs();
    const settled = await reconcileBoth();
    expect(settled.balanced, reconciliationReport(settled)).toBe(true);
    // Everything was swept: the deposit addresses are empty and the hot wallet holds the rest.
    expect(settled.depositAddressesUsdt).toBe(0n);
    // 150 in; the 30 withdrawal and the 10 split share out; 110 stays on the hot wallet: the
    // company's 109 (the failed 5 + 1 came back) and the 1 USDT fee earned.
    expect(settled.hotWalletUsdt).toBe(usdt('110'));
    expect(settled.treasuryUsdt).toBe(usdt('1'));
    expect(settled.companiesUsdt + settled.treasuryUsdt).toBe(usdt('110'));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);

    // The sweeps topped the addresses up with TRX first, whose USDT transfer then burned its fee;
    // what was left went back to the hot wallet, but for the reclaim's own fee.
    const trx = await chain.balances(SANDBOX_TRX);
    expect(trx.get(a.address)).toBe(RECLAIM_FEE_ALLOWANCE_SUN - SANDBOX_FEES.trxTransferSun);
    expect((await new DynamoSweepStore(env.db, env.tableName).dueAddresses(10)).due).toEqual([]);
  });

  it('reports USDT on a deposit address the scanner has not seen as a surplus on the sandbox, and leaves it out when reading only unswept addresses', async () => {
    const deposits = new DynamoDepositStore(env.db, env.tableName);
    const late = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: 'late' }, clock.now());
    await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_004), to: late.address, amount: usdt('4') });
    clock.advanceBlocks(1);

    const every = await reconcileHoldings(sources);
    const unswept = await reconcileHoldings(unsweptSources);

    expect(every.difference).toBe(usdt('4'));
    expect(unswept.balanced, reconciliationReport(unswept)).toBe(true);
    // The sandbox's networks list every address made (the deposit address listing, whole); TronGrid's
    // only those that may hold USDT the ledger counts, which the unscanned payment's is not yet.
    expect((await ledgerSide(env.db, env.tableName, 'unswept')).depositAddresses.tron).not.toContain(late.address);
    expect((await ledgerSide(env.db, env.tableName, { every: ['tron'] })).depositAddresses.tron).toContain(late.address);
    // Scanned and credited, it is owed and listed: both readings balance again.
    await scan();
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  it('a float sent to the hot wallet by hand is recorded from what the final chain shows, and reconcile balances again; a sweep, a failed transfer and one not yet final are refused', async () => {
    const deposit = await confirmedDepositAlone('float-beside-a-sweep', '8');
    for (let i = 0; i < 3; i++) await runJobs();
    const hot = await hotWallet.address();
    const store = new DynamoFloatStore(env.db, env.tableName);
    const funded = (txHash: string) => fundedFloat(chain, { network: 'tron', txHash, usdtContract: USDT, hotWallet: hot, isDepositAddress: async (address) => address === deposit.address });
    const treasury = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_005);

    // The sweep moved the deposit's USDT to the hot wallet: a company's money, not a float.
    const latest = await chain.latestBlock();
    const sweep = (await chain.transfers(USDT, 0, latest.number)).find((transfer) => transfer.from === deposit.address && transfer.to === hot)!;
    await expect(funded(sweep.txHash)).rejects.toThrow(new FloatRefused(`${sweep.txHash} is a sweep from the deposit address ${deposit.address}, not a float: its USDT is already in the ledger`));
    const reverted = await chain.submitTransfer({ contract: USDT, from: treasury, to: hot, amount: usdt('3'), result: 'REVERT' });
    const float = await chain.submitTransfer({ contract: USDT, from: treasury, to: hot, amount: usdt('50') });
    await expect(funded(float.txHash)).rejects.toThrow(/is in no final block on tron/);
    clock.advanceBlocks(20);
    await expect(funded(reverted.txHash)).rejects.toThrow(`${reverted.txHash} failed on tron (REVERT): it moved nothing`);

    const unrecorded = await reconcileBoth();
    expect(unrecorded.difference).toBe(usdt('50'));
    expect(await recordHotWalletFloat(store, await funded(float.txHash), clock.now())).toBe('recorded');
    expect(await recordHotWalletFloat(store, await funded(float.txHash), clock.now())).toBe('already_recorded');
    const recorded = await reconcileBoth();
    expect(recorded.balanced, reconciliationReport(recorded)).toBe(true);
    expect(recorded.treasuryUsdt - unrecorded.treasuryUsdt).toBe(usdt('50'));
  });

  it('a sweep whose broadcast was lost fails as TRANSACTION_EXPIRED past its expiration, and a later run sweeps the address', async () => {
    const deposit = await confirmedDepositAlone('lost-sweep', '12');
    const hotWallet = await tronSources.hotWalletAddress();
    const hotBefore = await chain.tokenBalance(USDT, hotWallet);

    // TronGrid down for the top-up's broadcast: the run goes on, the stored top-up never lands.
    const down = failingBroadcaster('TronGrid unavailable');
    expect(await sweepDepositAddresses({ ...sweeping, broadcaster: down })).toMatchObject({ toppedUp: 0, failed: 0 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ failed: 0 }); // not yet past its expiration
    clock.advance(TRANSACTION_LIFETIME_MS + EXPIRY_SETTLE_MARGIN_MS + 20 * BLOCK_MS);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ failed: 1 });

    // Still due: the next runs top up and sweep it.
    for (let i = 0; i < 3; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect((await chain.tokenBalance(USDT, hotWallet)) - hotBefore).toBeGreaterThanOrEqual(usdt('12'));
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  /** A clean payer and a listed one (screened() holds the latter's payments at finality), and a
   * fresh deposit whose address they pay; the earlier tests' addresses are swept first. */
  async function sanctionedAndCleanPayers(seed: number, reference: string) {
    for (let i = 0; i < 3; i++) await runJobs();
    const sanctionedPayer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, seed);
    const cleanPayer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, seed + 1);
    const holds: DepositHolds = {
      frozenAddresses: (addresses) => chain.frozenAmong(USDT, addresses),
      sanctioned: async (addresses) => new Set(addresses.filter((address) => address === sanctionedPayer)),
      usdtAt: (addresses) => chain.usdtBalances(USDT, addresses),
    };
    const screened = () => ({ ...depositJobs(), holds });
    const deposit = await createDeposit(new DynamoDepositStore(env.db, env.tableName), TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference }, clock.now());
    /** A payment to the deposit, seen by the scanner and not yet final. */
    const pay = async (from: string, amount: string) => {
      await chain.submitTransfer({ contract: USDT, from, to: deposit.address, amount: usdt(amount) });
      clock.advanceBlocks(1);
      await scan();
    };
    /** What is seen made final and judged, screening included. */
    const settle = async () => {
      clock.advanceBlocks(20);
      await scan();
      return confirmDeposits(screened());
    };
    return { sanctionedPayer, cleanPayer, screened, deposit, pay, settle };
  }

  it("a sanctioned payer's held money stays where it landed: clean payments there are credited, and nothing is swept from the address until a person releases the hold", async () => {
    const { sanctionedPayer, cleanPayer, screened, deposit, pay, settle } = await sanctionedAndCleanPayers(900_200, 'sanctioned-in-place');
    const payAndSettle = async (from: string, amount: string) => {
      await pay(from, amount);
      return settle();
    };
    // Credited first and due, not yet swept; then the sanctioned payment is held; then another credit.
    expect(await payAndSettle(cleanPayer, '5')).toMatchObject({ confirmed: 1 });
    expect(await payAndSettle(sanctionedPayer, '50')).toMatchObject({ held: 1 });
    expect(await payAndSettle(cleanPayer, '3')).toMatchObject({ confirmed: 1 });

    for (let i = 0; i < 3; i++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('58'));
    expect((await reconcileBoth()).balanced).toBe(true);

    // A person releases it: the address is due again and swept whole.
    const [record] = (await new DynamoDepositChainStore(env.db, env.tableName, 'tron').heldTransfers()).filter((held) => held.depositId === deposit.id);
    const audit = auditEntry(companyId, 'deposit.released', { personId: null, email: null }, { sourceIp: 'command line', userAgent: null }, clock.now(), deposit.id, { reason: 'cleared by compliance' });
    expect(await releaseHeldTransfer(screened(), record!, audit)).toBe('released');
    for (let i = 0; i < 3; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect((await reconcileBoth()).balanced).toBe(true);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it("a payment still confirming at a due address is not swept with the credited money: a sanctioned payer's, once final and held, is still where it landed", async () => {
    const { sanctionedPayer, cleanPayer, deposit, pay, settle } = await sanctionedAndCleanPayers(900_300, 'confirming-not-swept');
    // The clean 5 is credited and makes the address due; the 50 is seen, and not final yet.
    await pay(cleanPayer, '5');
    expect(await settle()).toMatchObject({ confirmed: 1 });
    await pay(sanctionedPayer, '50');

    // The sweeper runs (a top-up, then the sweep) before the confirmer has judged it: the address
    // waits, its balance whole.
    for (let i = 0; i < 3; i++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('55'));

    // Final and screened: held for the sanction, and the address leaves the lists with all of it there.
    expect(await settle()).toMatchObject({ held: 1 });
    for (let i = 0; i < 3; i++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('55'));
    expect((await reconcileBoth()).balanced).toBe(true);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  /** Sweeper runs with no scan between: enough for a top-up, its sweep and the TRX's reclaim to
   * land, and for a second sweep of the address after it, were it still due. */
  async function sweepsAlone(runs = 8) {
    for (let i = 0; i < runs; i++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
  }

  /** A deposit the clean payer paid 5, credited and due, not yet swept. */
  async function creditedFive(seed: number, reference: string) {
    const payers = await sanctionedAndCleanPayers(seed, reference);
    await payers.pay(payers.cleanPayer, '5');
    expect(await payers.settle()).toMatchObject({ confirmed: 1 });
    return payers;
  }
  /** A payment on chain that the scanner, a minute behind, has not read yet. */
  async function landsUnscanned(from: string, to: string, amount: string) {
    await chain.submitTransfer({ contract: USDT, from, to, amount: usdt(amount) });
    clock.advanceBlocks(1);
  }
  /** What the address holds after sweeps alone; then reconcile and the ledger are exact. */
  async function leftAfterSweeps(address: string, left: bigint) {
    await sweepsAlone();
    expect(await chain.tokenBalance(USDT, address)).toBe(left);
    expect((await reconcileBoth()).balanced).toBe(true);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }

  it("a payment the scanner has not recorded yet at a due address is not swept with the credited money: a sanctioned payer's, once recorded and held, is still where it landed", async () => {
    const { sanctionedPayer, deposit, settle } = await creditedFive(900_400, 'unrecorded-not-swept');
    await landsUnscanned(sanctionedPayer, deposit.address, '50');
    const hotBefore = await chain.tokenBalance(USDT, await hotWallet.address());

    await sweepsAlone();
    // The credited 5 reached the hot wallet; the 50 is where it landed.
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('50'));
    expect((await chain.tokenBalance(USDT, await hotWallet.address())) - hotBefore).toBe(usdt('5'));

    // Recorded, final and screened: held for the sanction, and never swept.
    expect(await settle()).toMatchObject({ held: 1 });
    await leftAfterSweeps(deposit.address, usdt('50'));
  });

  it('a clean payment swept around while unrecorded is swept on its own once it is credited', async () => {
    const { cleanPayer, deposit, settle } = await creditedFive(900_500, 'unrecorded-then-credited');
    await landsUnscanned(cleanPayer, deposit.address, '7');
    await sweepsAlone();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('7'));

    expect(await settle()).toMatchObject({ confirmed: 1 });
    await leftAfterSweeps(deposit.address, 0n);
  });

  it('an address made before its sweepable USDT was counted is swept whole, as before: its credit is not left behind', async () => {
    const { deposit } = await creditedFive(900_600, 'made-before-the-count');
    // As an item written before the count was kept: no mark, no count.
    await env.db.send(new UpdateCommand({ TableName: env.tableName, Key: depositAddressItem.key(deposit.address), UpdateExpression: 'REMOVE countsSweepable, sweepableUsdt' }));
    await leftAfterSweeps(deposit.address, 0n);
  });

  it('an address a node behind reads as empty while USDT is recorded there stays due, its counts kept, and is swept once read right', async () => {
    const { deposit } = await creditedFive(900_700, 'read-empty-too-soon');
    const behind = { ...sweeping, usdtBalanceOf: async (address: string) => (address === deposit.address ? 0n : sweeping.usdtBalanceOf(address)) };
    expect(await sweepDepositAddresses(behind)).toMatchObject({ toppedUp: 0, swept: 0 });
    expect((await sweeping.store.dueAddresses(1_000)).due.map((due) => due.address)).toContain(deposit.address);
    expect(await sweeping.store.sweepCountsAt(deposit.address)).toMatchObject({ sweepable: usdt('5') });
    await leftAfterSweeps(deposit.address, 0n);
  });

  it("a hot wallet short of a top-up's TRX leaves the address due, held, with no failed sweep against it; funded, the address is swept", async () => {
    const deposit = await confirmedDepositAlone('hot-wallet-without-trx', '6');
    // The hot wallet's TRX read as spent: the sweeper sees one top-up's amount, but not its fee
    // (the 1.1 TRX of the address's account creation), so TRON would refuse it.
    const short = { ...sweeping, feeBalanceOf: async (address: string) => (address === (await hotWallet.address()) ? sweeping.settings.feeTopUp + 500_000n : chain.feeBalance(address)) };

    for (let i = 0; i < 4; i++) {
      expect(await sweepDepositAddresses(short)).toMatchObject({ toppedUp: 0, failed: 0, held: 1 });
      clock.advanceBlocks(20);
    }
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('6'));

    // Funded (the real balance again): topped up and swept at once, no backoff from the runs before.
    for (let i = 0; i < 3; i++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  describe('a deposit address the issuer freezes', () => {
    const issuer = () => tronSandboxIssuer(env.db, env.tableName);
    /** The sweeper as its job runs it: the issuer's freeze list read, and what each address holds. */
    const withFreezes = { ...sweeping, frozenAmong: (addresses: string[]) => chain.frozenAmong(USDT, addresses) };
    const usdtAt = usdtAtEach(withFreezes.usdtBalanceOf);
    const holds: DepositHolds = { frozenAddresses: (addresses) => chain.frozenAmong(USDT, addresses), sanctioned: async () => new Set(), usdtAt: (addresses) => chain.usdtBalances(USDT, addresses) };
    const usdtRow = async () => (await new DynamoCompanyStore(env.db, env.tableName).getBalances(companyId)).find((row) => row.currency === 'USDT')!;
    const available = async () => (await usdtRow()).available;
    const depositNow = (id: string) => new DynamoDepositStore(env.db, env.tableName).getDeposit(companyId, id);
    const release = (depositId: string, ticket: string) =>
      runOpsCommand('ops/deposits-release.ts', ['--deposit', depositId, '--reason', `the company must not wait: ${ticket}`, '--table', env.tableName], { DYNAMODB_ENDPOINT: env.endpoint });
    /** A payment to `address`, scanned and judged at finality with the issuer's freezes. */
    async function paidAndJudged(address: string, amount: string, payerIndex: number) {
      await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, payerIndex), to: address, amount: usdt(amount) });
      clock.advanceBlocks(1);
      while (((await scan()).lagBlocks ?? 0) > 0);
      clock.advanceBlocks(20);
      await confirmDeposits({ ...depositJobs(), holds });
    }
    /** A deposit paid `amount` and credited, then its address frozen and set aside by the sweeper:
     * the deposit, and the company's available balance before, the credit taken back since. */
    async function frozenAfterCredit(reference: string, amount: string) {
      const deposit = await confirmedDepositAlone(reference, amount);
      const before = await available();
      await issuer().freeze(deposit.address);
      await sweepDepositAddresses(withFreezes);
      expect(await available()).toBe(before - usdt(amount));
      return { deposit, before };
    }
    /** Sweep runs until the address is empty; then reconcile and every balance are exact. */
    async function sweptAndBalanced(address: string) {
      for (let i = 0; i < 3; i++) {
        await sweepDepositAddresses(withFreezes);
        clock.advanceBlocks(20);
      }
      expect(await chain.tokenBalance(USDT, address)).toBe(0n);
      expect((await reconcileBoth()).balanced).toBe(true);
      await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
    }

    /** The issuer unfreezes the address: the payment held there is released, the credit a freeze
     * took back given back; the company's balance is `balance`, the deposit completed with `credited`. */
    async function unfrozenAndCredited(deposit: { id: string; address: string }, balance: { available: bigint; held: bigint }, credited: bigint) {
      await issuer().unfreeze(deposit.address);
      expect(await releaseUnfrozen({ ...depositJobs(), holds })).toBe(1);
      await returnUnfrozen(withFreezes.store, withFreezes.frozenAmong, usdtAt);
      expect(await usdtRow()).toMatchObject(balance);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: credited });
      await sweptAndBalanced(deposit.address);
    }

    it('a due one frozen after its credit: set aside, its credit taken back into held, given back once unfrozen, and reconcile balanced throughout', async () => {
      const deposit = await confirmedDepositAlone('frozen-after-credit', '5');
      const before = await usdtRow();
      await issuer().freeze(deposit.address);

      expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ frozen: 1, toppedUp: 0 });
      expect(await usdtRow()).toMatchObject({ available: before.available - usdt('5'), held: before.held + usdt('5') });
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('5') });
      expect(await chain.tokenBalance(USDT, deposit.address)).toBe(usdt('5'));
      expect((await reconcileBoth()).balanced).toBe(true);

      await issuer().unfreeze(deposit.address);
      await returnUnfrozen(withFreezes.store, withFreezes.frozenAmong, usdtAt);
      expect(await usdtRow()).toMatchObject({ available: before.available, held: before.held });
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('5') });
      await sweptAndBalanced(deposit.address);
    });

    it("one left below the sweep minimum, frozen after its credit, is found by the sweeper's review: its credit taken back into held, given back once unfrozen", async () => {
      const deposit = await confirmedDepositAlone('frozen-below-minimum', '0.4');
      // Below the 1 USDT minimum: left there, off the due list, which the sweep never looks at again.
      await sweepDepositAddresses(withFreezes);
      expect(await withFreezes.store.belowMinimumPage(100)).toContain(deposit.address);
      const before = await usdtRow();
      await issuer().freeze(deposit.address);
      expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ frozen: 0 });
      expect(await available()).toBe(before.available);

      // The review a run makes (every below-minimum address comes round in turn) finds it.
      let review = { stillFrozen: 0, returned: 0, setAside: 0 };
      for (let run = 0; run < 10 && review.setAside === 0; run++) review = await reviewFrozenAddresses(withFreezes.store, withFreezes.frozenAmong, usdtAt);
      expect(review).toMatchObject({ setAside: 1, stillFrozen: 1 });
      expect(await usdtRow()).toMatchObject({ available: before.available - usdt('0.4'), held: before.held + usdt('0.4') });
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', frozenCredit: usdt('0.4') });
      expect((await reconcileBoth()).balanced).toBe(true);

      await issuer().unfreeze(deposit.address);
      expect(await reviewFrozenAddresses(withFreezes.store, withFreezes.frozenAmong, usdtAt)).toMatchObject({ returned: 1, stillFrozen: 0 });
      expect(await usdtRow()).toMatchObject({ available: before.available, held: before.held });
      // Back on the due list, still below the minimum: left there again, and still credited.
      await sweepDepositAddresses(withFreezes);
      expect(await withFreezes.store.belowMinimumPage(100)).toContain(deposit.address);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('0.4') });
      expect((await reconcileBoth()).balanced).toBe(true);
      await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
    });

    it('its credit is given back once it is unfrozen even when a payment held there is released first and takes the address off the set-aside list', async () => {
      const { deposit, before } = await frozenAfterCredit('frozen-then-paid-again', '5');
      // A second payment to the frozen address: held at finality.
      await paidAndJudged(deposit.address, '2', 900_102);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('5') });

      await issuer().unfreeze(deposit.address);
      // The poller runs first: it credits the held payment, which puts the address back on the due list.
      expect(await releaseUnfrozen({ ...depositJobs(), holds })).toBe(1);
      expect(await withFreezes.store.setAsideAddresses()).not.toContain(deposit.address);
      expect(await available()).toBe(before - usdt('5') + usdt('2'));
      // The sweeper finds the credit from the deposit, not the list.
      await returnUnfrozen(withFreezes.store, withFreezes.frozenAmong, usdtAt);
      expect(await available()).toBe(before + usdt('2'));
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('7') });
      await sweptAndBalanced(deposit.address);
    });

    it('a payment held there because it is frozen does not take it off the due list before the sweeper has taken back the credit still there', async () => {
      const deposit = await confirmedDepositAlone('frozen-then-held-first', '5');
      const before = await usdtRow();
      await issuer().freeze(deposit.address);
      // The poller judges a second payment first: held, as the address is frozen.
      await paidAndJudged(deposit.address, '2', 900_103);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', creditedAmount: usdt('5') });

      expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ frozen: 1, toppedUp: 0 });
      expect(await usdtRow()).toMatchObject({ available: before.available - usdt('5'), held: before.held + usdt('7') });
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('5') });
      expect(await withFreezes.store.setAsideAddresses()).toContain(deposit.address);

      await unfrozenAndCredited(deposit, { available: before.available + usdt('2'), held: before.held }, usdt('7'));
    });

    it('one swept empty, then frozen and paid again: the swept credit is not taken back, and the new payment is credited once unfrozen', async () => {
      const deposit = await confirmedDepositAlone('emptied-then-frozen', '5');
      await sweptAndBalanced(deposit.address);
      // The reclaim lands, and the emptied address is cleared off the lists.
      for (let i = 0; i < 2; i++) {
        await sweepDepositAddresses(withFreezes);
        clock.advanceBlocks(20);
      }
      expect((await withFreezes.store.dueAddresses(1_000)).due).not.toContainEqual(expect.objectContaining({ address: deposit.address }));
      const before = await usdtRow();
      await issuer().freeze(deposit.address);
      await paidAndJudged(deposit.address, '3', 900_104);
      expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ frozen: 1 });
      // The 5 is in the hot wallet: only the new 3 is held.
      expect(await usdtRow()).toMatchObject({ available: before.available, held: before.held + usdt('3') });

      await unfrozenAndCredited(deposit, { available: before.available + usdt('3'), held: before.held }, usdt('8'));
    });

    it('a credit already swept out of it before its due mark is cleared is not taken back: only what is still there', async () => {
      const deposit = await confirmedDepositAlone('swept-then-frozen', '5');
      const before = await available();
      // As the sweeper sees it after its sweep landed and before a run clears the due mark: nothing there.
      await sweeping.store.setAside(deposit.address, 0n);
      expect(await sweeping.store.setAsideAddresses()).toContain(deposit.address);
      expect(await available()).toBe(before);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('5') });
      // Part of it there: only that part.
      await sweeping.store.returnToDue(deposit.address, await chain.tokenBalance(USDT, deposit.address));
      await sweeping.store.setAside(deposit.address, usdt('2'));
      expect(await available()).toBe(before - usdt('2'));
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held', creditedAmount: usdt('3'), frozenCredit: usdt('2') });
      await sweeping.store.returnToDue(deposit.address, await chain.tokenBalance(USDT, deposit.address));
      expect(await available()).toBe(before);
      await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
    });

    it('its credit released by a person (deposits:release) stays credited while it is still frozen, and is not credited twice once it is unfrozen', async () => {
      const { deposit, before } = await frozenAfterCredit('frozen-after-credit-released', '7');

      const released = await release(deposit.id, 'ticket 7');
      expect(released.stderr).toBe('');
      expect(released.stdout).toContain('Released 7.000000 USDT');
      expect(await available()).toBe(before);
      expect((await release(deposit.id, 'ticket 7')).stdout).toContain('Nothing held');
      // Still frozen: the sweeper's next runs leave the person's decision as it is.
      for (let i = 0; i < 2; i++) expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ toppedUp: 0 });
      expect(await available()).toBe(before);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('7') });

      await issuer().unfreeze(deposit.address);
      await returnUnfrozen(withFreezes.store, withFreezes.frozenAmong, usdtAt);
      await sweptAndBalanced(deposit.address);
      expect(await available()).toBe(before);
    });

    it('a payment to it, held and then released by a person, stays credited when the sweeper finds it still frozen', async () => {
      for (let i = 0; i < 3; i++) await runJobs();
      const deposit = await createDeposit(new DynamoDepositStore(env.db, env.tableName), TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: 'frozen-before-credit-released' }, clock.now());
      await issuer().freeze(deposit.address);
      await paidAndJudged(deposit.address, '6', 900_101);
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'held' });
      const before = await available();

      expect((await release(deposit.id, 'ticket 8')).stdout).toContain('Released 6.000000 USDT');
      expect(await available()).toBe(before + usdt('6'));
      expect(await sweepDepositAddresses(withFreezes)).toMatchObject({ frozen: 1 });
      expect(await available()).toBe(before + usdt('6'));
      expect(await depositNow(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('6') });
      await issuer().unfreeze(deposit.address);
    });
  });

  it('a sweep lost after its top-up landed is redone without a second top-up: the TRX is still there', async () => {
    const deposit = await confirmedDepositAlone('lost-after-top-up', '6');

    // TronGrid refuses the USDT sweep (a TriggerSmartContract) but not the TRX top-up.
    const usdtLost = {
      ...sweeping,
      broadcaster: {
        broadcast: async (transaction: Record<string, unknown>) =>
          JSON.stringify(transaction).includes('TriggerSmartContract') ? Promise.reject(new Error('TronGrid unavailable')) : chain.broadcast(transaction),
      },
    };
    expect(await sweepDepositAddresses(usdtLost)).toMatchObject({ toppedUp: 1 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(usdtLost)).toMatchObject({ swept: 0, failed: 0 });
    clock.advance(TRANSACTION_LIFETIME_MS + EXPIRY_SETTLE_MARGIN_MS + 20 * BLOCK_MS);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ failed: 1 });

    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 0, swept: 1 });
    for (let i = 0; i < 3; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
    // One top-up only: what its USDT sweep left went back to the hot wallet, but for the reclaim's fee.
    expect((await new DynamoSweepStore(env.db, env.tableName).finishedSweeps(deposit.address, 1))[0]).toMatchObject({
      status: 'done',
      reclaimedSun: sweeping.settings.feeTopUp - SANDBOX_FEES.trc20TransferSun - RECLAIM_FEE_ALLOWANCE_SUN,
    });
    expect(await chain.feeBalance(deposit.address)).toBe(RECLAIM_FEE_ALLOWANCE_SUN - SANDBOX_FEES.trxTransferSun);
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  it('sends the TRX a sweep left back to the hot wallet, and tops the address up next time only by what it lacks', async () => {
    const deposit = await confirmedDepositAlone('trx-reclaimed', '7');
    const hot = await hotWallet.address();
    const store = new DynamoSweepStore(env.db, env.tableName);
    const { feeTopUp } = sweeping.settings;
    const left = feeTopUp - SANDBOX_FEES.trc20TransferSun;

    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 1 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ swept: 1 });
    clock.advanceBlocks(20);
    const hotTrx = await chain.feeBalance(hot);
    // The USDT is in the hot wallet: done, while the TRX goes back.
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ done: 1 });
    expect(await store.openSweep(deposit.address)).toMatchObject({ status: 'reclaiming', reclaimedSun: left - RECLAIM_FEE_ALLOWANCE_SUN });
    clock.advanceBlocks(20);
    await sweepDepositAddresses(sweeping);
    expect(await store.openSweep(deposit.address)).toBeNull();
    // Emptied, it leaves the due list in the run its sweep ends, not a run later: its place goes to another address.
    expect((await store.dueAddresses(50)).due.map((due) => due.address)).not.toContain(deposit.address);
    expect((await store.finishedSweeps(deposit.address, 1))[0]).toMatchObject({ status: 'done', reclaimedSun: left - RECLAIM_FEE_ALLOWANCE_SUN });
    expect(await chain.feeBalance(hot)).toBe(hotTrx + left - RECLAIM_FEE_ALLOWANCE_SUN);
    const stillThere = RECLAIM_FEE_ALLOWANCE_SUN - SANDBOX_FEES.trxTransferSun;
    expect(await chain.feeBalance(deposit.address)).toBe(stillThere);

    // Paid again: the top-up is what the address lacks, and creates no account this time.
    const paidAgain = async (amount: string) => {
      await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_102), to: deposit.address, amount: usdt(amount) });
      clock.advanceBlocks(1);
      while (((await scan()).lagBlocks ?? 0) > 0);
      clock.advanceBlocks(20);
      await confirmDeposits(depositJobs());
    };
    await paidAgain('3');
    const beforeTopUp = await chain.feeBalance(hot);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 1 });
    expect(await chain.feeBalance(hot)).toBe(beforeTopUp - (feeTopUp - stillThere) - SANDBOX_FEES.trxTransferSun);
    expect(await chain.feeBalance(deposit.address)).toBe(feeTopUp);

    // A reclaim the node refuses (as it would one built from a balance read off a lagging node)
    // expires, and is signed again from a fresh read, which lands.
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ swept: 1 });
    clock.advanceBlocks(20);
    const trxRefused = {
      ...sweeping,
      broadcaster: {
        broadcast: async (transaction: Record<string, unknown>) => (JSON.stringify(transaction).includes('TransferContract') ? Promise.reject(new Error('CONTRACT_VALIDATE_ERROR')) : chain.broadcast(transaction)),
      },
    };
    const expired = () => clock.advance(TRANSACTION_LIFETIME_MS + EXPIRY_SETTLE_MARGIN_MS + 20 * BLOCK_MS);
    expect(await sweepDepositAddresses(trxRefused)).toMatchObject({ done: 1 });
    expect(await chain.feeBalance(deposit.address)).toBe(left);
    expired();
    await sweepDepositAddresses(sweeping);
    expect(await store.openSweep(deposit.address)).toMatchObject({ status: 'reclaiming', reclaimAttempts: 2 });
    clock.advanceBlocks(20);
    await sweepDepositAddresses(sweeping);
    expect((await store.finishedSweeps(deposit.address, 1))[0]).toMatchObject({ status: 'done', reclaimedSun: left - RECLAIM_FEE_ALLOWANCE_SUN, reclaimAttempts: 2 });
    expect(await chain.feeBalance(deposit.address)).toBe(stillThere);

    // Refused every time, it is given up after RECLAIM_ATTEMPTS, so a payment to the address never
    // waits behind it: the sweep is done, and its TRX stays for the address's next sweep.
    await paidAgain('2');
    for (let run = 0; run < 4; run++) await runJobs();
    expect(await store.openSweep(deposit.address)).toBeNull();
    await paidAgain('2');
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 1 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ swept: 1 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(trxRefused)).toMatchObject({ done: 1 });
    for (let attempt = 1; attempt < RECLAIM_ATTEMPTS; attempt++) {
      expired();
      await sweepDepositAddresses(trxRefused);
      expect(await store.openSweep(deposit.address)).toMatchObject({ status: 'reclaiming', reclaimAttempts: attempt + 1 });
    }
    expired();
    await sweepDepositAddresses(trxRefused);
    expect(await store.openSweep(deposit.address)).toBeNull();
    expect((await store.finishedSweeps(deposit.address, 1))[0]).toMatchObject({ status: 'done', reclaimedSun: null, reclaimAttempts: RECLAIM_ATTEMPTS });
    expect(await chain.feeBalance(deposit.address)).toBe(left);
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  it('after three failed sweeps of an address in a row it is held an hour, then tried again', async () => {
    const deposit = await confirmedDepositAlone('failing-sweeps', '9');

    const down = { ...sweeping, broadcaster: failingBroadcaster('TronGrid unavailable') };
    for (let attempt = 0; attempt < FAILURES_BEFORE_BACKOFF; attempt++) {
      expect(await sweepDepositAddresses(down)).toMatchObject({ held: 0 });
      clock.advance(TRANSACTION_LIFETIME_MS + EXPIRY_SETTLE_MARGIN_MS + 20 * BLOCK_MS);
      expect(await sweepDepositAddresses(down)).toMatchObject({ failed: 1 });
    }
    // Held: no new top-up, run after run, until the hour has passed.
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ held: 1, toppedUp: 0 });
    clock.advance(30 * 60_000);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ held: 1, toppedUp: 0 });
    clock.advance(31 * 60_000);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ held: 0, toppedUp: 1 });
    for (let i = 0; i < 3; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
  });

  it('an address held after failed sweeps at the front of the due list does not keep the addresses after it from being swept', async () => {
    const stuck = await confirmedDepositAlone('stuck-in-front', '9');
    const down = { ...sweeping, broadcaster: failingBroadcaster('TronGrid unavailable') };
    for (let attempt = 0; attempt < FAILURES_BEFORE_BACKOFF; attempt++) {
      await sweepDepositAddresses(down);
      clock.advance(TRANSACTION_LIFETIME_MS + EXPIRY_SETTLE_MARGIN_MS + 20 * BLOCK_MS);
      await sweepDepositAddresses(down);
    }
    // A deposit whose address the due list reads after the stuck one's, paid and confirmed.
    const deposits = new DynamoDepositStore(env.db, env.tableName);
    let later = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: 'behind-the-stuck-0' }, clock.now());
    for (let i = 1; later.address < stuck.address; i++) later = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `behind-the-stuck-${i}` }, clock.now());
    await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_100), to: later.address, amount: usdt('8') });
    clock.advanceBlocks(1);
    while (((await scan()).lagBlocks ?? 0) > 0);
    clock.advanceBlocks(20);
    await confirmDeposits(depositJobs());

    // One address a run, as if the front of the list were a whole page of stuck ones: the run reads on past it.
    const onePerRun = { ...sweeping, settings: { ...sweeping.settings, duePerRun: 1 } };
    expect(await sweepDepositAddresses(onePerRun)).toMatchObject({ held: 1, toppedUp: 1 });
    for (let i = 0; i < 3; i++) {
      clock.advanceBlocks(20);
      await sweepDepositAddresses(onePerRun);
    }
    expect(await chain.tokenBalance(USDT, later.address)).toBe(0n);
    expect(await chain.tokenBalance(USDT, stuck.address)).toBe(usdt('9'));
    // Its hour over, the stuck one is swept too, leaving the list clear for the tests after.
    clock.advance(61 * 60_000);
    for (let i = 0; i < 4; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, stuck.address)).toBe(0n);
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  it('reads on past a page that holds only an address with a payment still confirming', async () => {
    const first = await confirmedDepositAlone('confirming-again', '5');
    const deposits = new DynamoDepositStore(env.db, env.tableName);
    let later = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: 'after-the-confirming-0' }, clock.now());
    for (let i = 1; later.address < first.address; i++) later = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `after-the-confirming-${i}` }, clock.now());
    const payer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_100);
    await chain.submitTransfer({ contract: USDT, from: payer, to: later.address, amount: usdt('6') });
    clock.advanceBlocks(1);
    while (((await scan()).lagBlocks ?? 0) > 0);
    clock.advanceBlocks(20);
    await confirmDeposits(depositJobs());
    // The first address is paid again: recorded, still confirming, so the due list leaves it out.
    await chain.submitTransfer({ contract: USDT, from: payer, to: first.address, amount: usdt('1') });
    clock.advanceBlocks(1);
    while (((await scan()).lagBlocks ?? 0) > 0);

    // One address a page: the first page is the first address, left out; the run reads the next.
    const onePerRun = { ...sweeping, settings: { ...sweeping.settings, duePerRun: 1 } };
    expect(await sweepDepositAddresses(onePerRun)).toMatchObject({ toppedUp: 1 });
    expect(await chain.feeBalance(later.address)).toBeGreaterThan(0n);
    expect(await chain.feeBalance(first.address)).toBe(0n);
    for (let i = 0; i < 5; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, later.address)).toBe(0n);
    expect(await chain.tokenBalance(USDT, first.address)).toBe(0n);
    expect((await reconcileBoth()).balanced).toBe(true);
  });

  it('tops up no address the sweep key does not sign for (a key that is not the deposit xpub’s): held, the hot wallet’s TRX kept', async () => {
    const deposit = await confirmedDepositAlone('wrong-sweep-key', '4');
    const anotherAccount = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/195'/0'").privateExtendedKey;
    const wrongKey = { ...sweeping, depositKeys: new HdDepositKeySigner(async () => anotherAccount) };
    const trxBefore = await chain.feeBalance(await hotWallet.address());

    expect(await sweepDepositAddresses(wrongKey)).toMatchObject({ toppedUp: 0, swept: 0, held: 1 });
    clock.advanceBlocks(20);
    expect(await chain.feeBalance(await hotWallet.address())).toBe(trxBefore);
    expect(await chain.feeBalance(deposit.address)).toBe(0n);
    // With the right key it is swept, no backoff from the refusal.
    for (let i = 0; i < 3; i++) await runJobs();
    expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);
  });

  it("with the issuer's fee on, a sweep mined and not yet final reconciles: its fee is reported in flight until the sweep settles and books it", async () => {
    const issuer = tronSandboxIssuer(env.db, env.tableName);
    await issuer.setFee(10, usdt('40'));
    try {
      // 50 paid, 0.05 to the issuer: 49.95 credited, and the sweep of it pays 0.04995 more.
      const deposit = await confirmedDepositAlone('fee-in-flight', '50');
      expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 1 });
      clock.advanceBlocks(20);
      expect(await sweepDepositAddresses(sweeping)).toMatchObject({ swept: 1 });
      clock.advanceBlocks(1);
      expect(await chain.tokenBalance(USDT, deposit.address)).toBe(0n);

      const mined = await reconcileBoth();
      expect(mined.balanced, reconciliationReport(mined)).toBe(true);
      expect(mined.sweepFeesInFlightUsdt).toBe(usdt('0.04995'));
      expect(reconciliationReport(mined)).toMatch(/- issuer's fee, sweeps not final +0\.049950\n= owed/);

      clock.advanceBlocks(20);
      expect(await sweepDepositAddresses(sweeping)).toMatchObject({ done: 1 });
      const settled = await reconcileBoth();
      expect(settled.balanced, reconciliationReport(settled)).toBe(true);
      expect(settled.sweepFeesInFlightUsdt).toBe(0n);
      expect(reconciliationReport(settled)).not.toContain("issuer's fee");
    } finally {
      await issuer.setFee(0, 0n);
    }
  });

  it('reports a mismatch when the wallets hold money the ledger does not know of', async () => {
    await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_003), to: await tronSources.hotWalletAddress(), amount: usdt('7') });
    clock.advanceBlocks(1);
    const result = await reconcileHoldings(sources);
    expect(result.balanced).toBe(false);
    expect(result.difference).toBe(usdt('7'));
    expect(result.mismatch).toBe('surplus');
    expect(reconciliationReport(result)).toContain('MISMATCH: 7.000000 USDT (surplus)');
  });
});
