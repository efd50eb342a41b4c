import { describe, expect, it } from 'vitest';
import {
  CHAIN_READ_CHUNK,
  EVERY_ADDRESS_PAGE,
  reconcileHoldings,
  reconciliationReport,
  type EveryDepositAddressListing,
  type EveryDepositAddressTurn,
  type LedgerSide,
  type NetworkReconcileSources,
} from '#functions/ledger/reconciliation';
import { usdt } from '../support/money.ts';

/**
 * reconcileHoldings over a ledger side and chains given as plain values (functions/ledger/reconciliation.ts):
 * what finance reads of the figures, the verdict and the report, without a table or a node.
 */
const HOT = '0x1111111111111111111111111111111111111111';
/** A ledger side that owes nothing and has nothing in flight: each test says what it has. */
const ledgerWith = (side: Partial<LedgerSide>): LedgerSide => ({ companiesUsdt: 0n, treasuryUsdt: 0n, netInflowUsdt: {}, processing: [], depositAddresses: {}, ...side });
const A = '0x2222222222222222222222222222222222222222';

/** Every deposit address as the table lists it (reconciliation-store.ts everyDepositAddressListing),
 * in memory: in the order given, the turn kept from one run to the next. */
function listingOf(addresses: readonly string[]): EveryDepositAddressListing & { kept: EveryDepositAddressTurn | null; failKeep?: Error } {
  const entries = addresses.map((address, i) => ({ address, sortKey: `2026-12-01T00:00:00.000Z#${String(i).padStart(9, '0')}` }));
  const listing: EveryDepositAddressListing & { kept: EveryDepositAddressTurn | null; failKeep?: Error } = {
    kept: null,
    turn: async () => listing.kept,
    listedAfter: async (after, _before, limit) => entries.filter((entry) => after === null || entry.sortKey > after).slice(0, limit),
    keepTurn: async (turn) => {
      if (listing.failKeep) throw listing.failKeep;
      listing.kept = turn;
    },
  };
  return listing;
}

/**
 * BSC's USDT has 18 decimals: each transfer is credited in whole micro-units and its remainder below
 * 1e-6 recorded as dust (evm-chain.ts transfers, functions/deposits/dust.ts), while reconcile reads each
 * address's balance in whole micro-units and what it holds below (from-settings.ts evmReconcileSources).
 */
describe('dust on BSC (18 decimals) in reconcile', () => {
  const PER_MICRO = 10n ** 12n;

  /** BSC as evmReconcileSources reads it, over a map of token balances in base units (wei). */
  const bsc = (wei: Map<string, bigint>): NetworkReconcileSources => ({
    network: 'bsc',
    hotWalletAddress: async () => HOT,
    usdtBalances: async (addresses) => new Map(addresses.map((address) => [address, (wei.get(address) ?? 0n) / PER_MICRO])),
    usdtBelowMicro: async (addresses) => new Map(addresses.map((address) => [address, (wei.get(address) ?? 0n) % PER_MICRO])),
    tokenDecimals: 18,
    receipt: async () => null,
    readsEveryDepositAddressOf: () => true,
  });

  /** The ledger after `payments` (base units) to deposit address A on BSC: each credited in whole micro-units, its remainder recorded. */
  const ledgerAfter = (payments: bigint[], unswept: string[]): LedgerSide => {
    const credited = payments.reduce((sum, value) => sum + value / PER_MICRO, 0n);
    return ledgerWith({
      companiesUsdt: credited,
      netInflowUsdt: { bsc: credited },
      depositAddresses: { bsc: unswept },
      everyDepositAddress: listingOf([A]),
      dust: { bsc: payments.filter((value) => value % PER_MICRO > 0n).map((value) => ({ address: A, amount: value % PER_MICRO })) },
    });
  };
  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

  it('two payments of 1.0000005 USDT to one address (2.000001 held, 2.000000 credited, 0.000001 recorded) reconcile to the unit, the dust explained; 5 wei more on the hot wallet is unrecorded dust', async () => {
    const payments = [1_000_000_500_000_000_000n, 1_000_000_500_000_000_000n];
    const wei = new Map([[A, sum(payments)]]);
    const sources = { ledger: async () => ledgerAfter(payments, [A]), networks: [bsc(wei)] };
    const result = await reconcileHoldings(sources);
    const report = reconciliationReport(result);
    expect(result, report).toMatchObject({ onChain: usdt('2.000001'), owed: usdt('2.000001'), difference: 0n, balanced: true, mismatch: null, dustUsdt: 1n });
    expect(result.networks[0], report).toMatchObject({ balanced: true, dustUsdt: 1n, dust: { held: PER_MICRO, recorded: PER_MICRO } });
    expect(report).toMatch(/\+ dust, whole micro-units\s+0\.000001/);
    expect(report).toContain('dust 1000000000000 held, 1000000000000 recorded (0.000001 USDT of it gathered into whole micro-units, counted in owed)');
    expect(report).not.toContain('recorded dust not found');
    expect(report).not.toContain('UNRECORDED DUST');

    wei.set(HOT, 5n);
    const unrecorded = await reconcileHoldings(sources);
    expect(unrecorded.networks[0]).toMatchObject({ balanced: true, dust: { held: PER_MICRO + 5n, recorded: PER_MICRO } });
    expect(reconciliationReport(unrecorded)).toContain('(UNRECORDED DUST)');

    // Recorded dust missing from the chain reads as not found, not as a micro-unit gathered:
    // 0.6e-6 recorded at A, which holds only its whole micro-units.
    const missing = await reconcileHoldings({ ledger: async () => ledgerAfter([1_000_000_600_000_000_000n], [A]), networks: [bsc(new Map([[A, 1_000_000_000_000_000_000n]]))] });
    expect(missing.networks[0]).toMatchObject({ balanced: true, dustUsdt: 0n, dust: { held: 0n, recorded: 600_000_000_000n } });
    expect(reconciliationReport(missing)).toContain('(recorded dust not found)');
  });

  it('20,002 payments of 12.3456785 USDT swept to the hot wallet gather 0.010001 USDT of dust there: balanced, not a surplus beyond dust; 0.02 USDT taken from the hot wallet is still a shortfall', async () => {
    const payments = Array.from({ length: 20_002 }, () => 12_345_678_500_000_000_000n);
    const wei = new Map([[HOT, sum(payments)]]);
    const sources = { ledger: async () => ledgerAfter(payments, []), networks: [bsc(wei)] };
    const result = await reconcileHoldings(sources);
    const report = reconciliationReport(result);
    expect(result, report).toMatchObject({ hotWalletUsdt: 20_002n * usdt('12.345678') + usdt('0.010001'), dustUsdt: usdt('0.010001'), difference: 0n, balanced: true, mismatch: null });
    expect(result.networks[0], report).toMatchObject({ difference: 0n, balanced: true, dust: { held: sum(payments.map((value) => value % PER_MICRO)), recorded: sum(payments.map((value) => value % PER_MICRO)) } });
    expect(report).not.toContain('MISMATCH');
    expect(report.split('\n')).toContain('balanced');

    wei.set(HOT, sum(payments) - usdt('0.02') * PER_MICRO);
    const short = await reconcileHoldings(sources);
    expect(short, reconciliationReport(short)).toMatchObject({ difference: -usdt('0.02'), mismatch: 'shortfall', dustUsdt: usdt('0.010001') });
    expect(reconciliationReport(short)).toContain('MISMATCH: -0.020000 USDT (shortfall)');
  });
});

/**
 * USDT at a deposit address the ledger lists nothing at on a network (a payment to an EVM deposit
 * address on another EVM network than its deposit's: not credited, owed to no one) is reported apart
 * and never counted as held, so it cannot cancel a shortfall of the same size.
 */
describe('USDT no one is owed in reconcile', () => {
  const ETH_DEPOSIT = '0x3333333333333333333333333333333333333333';
  const ledger = ledgerWith({
    companiesUsdt: usdt('1000'),
    netInflowUsdt: { polygon: usdt('1000') },
    depositAddresses: { polygon: [], ethereum: [] },
    everyDepositAddress: listingOf([ETH_DEPOSIT]),
    dust: {},
  });
  const polygon = (held: Map<string, bigint>): NetworkReconcileSources => ({
    network: 'polygon',
    hotWalletAddress: async () => HOT,
    usdtBalances: async (addresses) => new Map(addresses.map((address) => [address, held.get(address) ?? 0n])),
    receipt: async () => null,
    readsEveryDepositAddressOf: () => true,
  });

  it("500 USDT missing from polygon's hot wallet while 500 USDT sits at an ethereum deposit's address on polygon is a 500 shortfall, the 500 reported apart, not netted", async () => {
    const result = await reconcileHoldings({ ledger: async () => ledger, networks: [polygon(new Map([[HOT, usdt('500')], [ETH_DEPOSIT, usdt('500')]]))] });
    const report = reconciliationReport(result);
    expect(result, report).toMatchObject({ onChain: usdt('500'), owed: usdt('1000'), difference: -usdt('500'), mismatch: 'shortfall', unexplainedHeldUsdt: usdt('500') });
    expect(result.networks[0], report).toMatchObject({
      hotWalletUsdt: usdt('500'),
      depositAddressesUsdt: 0n,
      difference: -usdt('500'),
      mismatch: 'shortfall',
      unexplainedUsdt: [{ address: ETH_DEPOSIT, amount: usdt('500') }],
      unexplainedHeldUsdt: usdt('500'),
    });
    expect(report).toContain('MISMATCH: -500.000000 USDT (shortfall)');
    expect(report).toMatch(/unexplained, not counted\s+500\.000000/);
    expect(report).toContain(`${ETH_DEPOSIT}, which the ledger does not explain`);

    // With the hot wallet whole, the same 500 is no surplus either: balanced, and still reported.
    const whole = await reconcileHoldings({ ledger: async () => ledger, networks: [polygon(new Map([[HOT, usdt('1000')], [ETH_DEPOSIT, usdt('500')]]))] });
    expect(whole, reconciliationReport(whole)).toMatchObject({ balanced: true, mismatch: null, unexplainedHeldUsdt: usdt('500') });
    expect(whole.networks[0]).toMatchObject({ balanced: true, unexplainedHeldUsdt: usdt('500') });
    expect(reconciliationReport(whole)).toMatch(/unexplained, not counted\s+500\.000000/);
  });
});

/**
 * A grown stage has 100,000s of EVM deposit addresses (unpaid and expired ones too): read all on
 * every EVM network every run, reconcile outran its 5 minutes and its memory, and the whole stage
 * lost its shortfall check. Each run reads the ledger's list and a page of every address beyond it,
 * going on where the last run stopped, and asks the chain a chunk at a time.
 */
describe('every deposit address, a page a run', () => {
  const LISTED = '0x4444444444444444444444444444444444444444';
  // Two full pages and a part: a turn is three runs.
  const everyAddress = Array.from({ length: 2 * EVERY_ADDRESS_PAGE + 1_234 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  // In the second page: paid on polygon, its deposit's network another.
  const PAID = everyAddress[EVERY_ADDRESS_PAGE + 17]!;
  const T0 = Date.parse('2026-12-01T10:00:00.000Z');

  /** An EVM network that records every read it is asked for: on polygon the hot wallet holds the 100 owed, and PAID 7 USDT. */
  const network = (name: 'polygon' | 'ethereum') => {
    const usdtReads: string[][] = [];
    const nativeReads: string[][] = [];
    const sources: NetworkReconcileSources = {
      network: name,
      hotWalletAddress: async () => HOT,
      usdtBalances: async (addresses) => {
        usdtReads.push(addresses);
        return new Map(addresses.map((address) => [address, name !== 'polygon' ? 0n : address === HOT ? usdt('100') : address === PAID ? usdt('7') : 0n]));
      },
      nativeBalances: async (addresses) => {
        nativeReads.push(addresses);
        return new Map(addresses.map((address) => [address, 0n]));
      },
      receipt: async () => null,
      readsEveryDepositAddressOf: (address) => address.startsWith('0x'),
    };
    /** The addresses beyond the ledger's list read since the last call, in the order asked. */
    const unlistedRead = () => {
      const read = usdtReads.flat().filter((address) => address !== HOT && address !== LISTED);
      usdtReads.length = 0;
      return read;
    };
    return { sources, usdtReads, nativeReads, unlistedRead };
  };

  it('each network asks its chain for at most a page of unlisted addresses a run, a chunk at a time; the next run goes on where it stopped until every one is read; USDT at one is reported in the run that reads it', async () => {
    const listing = listingOf(everyAddress);
    const ledger = ledgerWith({ companiesUsdt: usdt('100'), netInflowUsdt: { polygon: usdt('100') }, depositAddresses: { polygon: [LISTED], ethereum: [] }, everyDepositAddress: listing });
    const polygon = network('polygon');
    const ethereum = network('ethereum');
    let hour = 0;
    const run = () => reconcileHoldings({ ledger: async () => ledger, networks: [polygon.sources, ethereum.sources], now: () => new Date(T0 + hour++ * 3_600_000) });

    const pages: string[][] = [];
    const results = [];
    for (let i = 0; i < 3; i++) {
      const result = await run();
      results.push(result);
      const [onPolygon, onEthereum] = [polygon.unlistedRead(), ethereum.unlistedRead()];
      // No more than a page beyond the list, each chain read no bigger than a chunk.
      expect(onPolygon.length).toBeLessThanOrEqual(EVERY_ADDRESS_PAGE);
      expect(onEthereum).toEqual(onPolygon);
      for (const chunk of [...polygon.usdtReads, ...polygon.nativeReads, ...ethereum.nativeReads]) expect(chunk.length).toBeLessThanOrEqual(CHAIN_READ_CHUNK);
      polygon.nativeReads.length = 0;
      ethereum.nativeReads.length = 0;
      pages.push(onPolygon);
    }
    // Three runs, three different pages: every address read once, in the listing's order.
    expect(pages.map((page) => page.length)).toEqual([EVERY_ADDRESS_PAGE, EVERY_ADDRESS_PAGE, 1_234]);
    expect(pages.flat()).toEqual(everyAddress);

    // The 7 USDT at PAID: reported on polygon in the second run, which read it, and not counted as held.
    const [first, second, third] = results;
    expect(first!.unexplainedHeldUsdt).toBe(0n);
    expect(second!.networks.find((reconciled) => reconciled.network === 'polygon'), reconciliationReport(second!)).toMatchObject({ unexplainedUsdt: [{ address: PAID, amount: usdt('7') }], balanced: true });
    expect(second!).toMatchObject({ unexplainedHeldUsdt: usdt('7'), balanced: true });
    expect(reconciliationReport(second!)).toContain(`${PAID}, which the ledger does not explain`);
    expect(third!.unexplainedHeldUsdt).toBe(0n);

    // What the report says of it: how much this run read, and how long a turn takes.
    expect(first!.everyDepositAddress).toEqual({
      read: EVERY_ADDRESS_PAGE,
      pageSize: EVERY_ADDRESS_PAGE,
      completedTurn: false,
      turn: { startedAt: '2026-12-01T10:00:00.000Z', entries: EVERY_ADDRESS_PAGE, runs: 1 },
      lastTurn: null,
    });
    const completed = { entries: everyAddress.length, runs: 3, startedAt: '2026-12-01T10:00:00.000Z', endedAt: '2026-12-01T12:00:00.000Z' };
    expect(third!.everyDepositAddress).toMatchObject({ read: 1_234, completedTurn: true, turn: { entries: everyAddress.length, runs: 3 }, lastTurn: completed });
    expect(reconciliationReport(third!)).toContain(`this run completed a turn: ${everyAddress.length} address(es) in 3 run(s), 2026-12-01T10:00:00.000Z to 2026-12-01T12:00:00.000Z`);
    expect(reconciliationReport(third!)).toContain('USDT at a deposit address the ledger does not list is found within one turn');

    // The next turn starts over from the first address, and says what the last one took.
    const fourth = await run();
    expect(polygon.unlistedRead()).toEqual(everyAddress.slice(0, EVERY_ADDRESS_PAGE));
    expect(fourth.everyDepositAddress).toMatchObject({ completedTurn: false, turn: { startedAt: '2026-12-01T13:00:00.000Z', entries: EVERY_ADDRESS_PAGE, runs: 1 }, lastTurn: completed });
    expect(reconciliationReport(fourth)).toContain(`the last full turn read ${everyAddress.length} in 3 run(s), 2026-12-01T10:00:00.000Z to 2026-12-01T12:00:00.000Z`);
  });

  it("a run that cannot keep where its page ended still compares and reports (the next run reads the page again); TRON alone reads no page", async () => {
    const listing = listingOf(everyAddress);
    const ledger = ledgerWith({ depositAddresses: { polygon: [] }, everyDepositAddress: listing });
    const polygon = network('polygon');
    listing.failKeep = new Error('AccessDeniedException: dynamodb:PutItem');
    const refused = await reconcileHoldings({ ledger: async () => ledger, networks: [polygon.sources] });
    expect(refused.everyDepositAddress).toMatchObject({ read: EVERY_ADDRESS_PAGE, notKept: 'Error: AccessDeniedException: dynamodb:PutItem' });
    expect(reconciliationReport(refused)).toContain('WHERE THIS PAGE ENDED WAS NOT KEPT');
    expect(polygon.unlistedRead()).toEqual(everyAddress.slice(0, EVERY_ADDRESS_PAGE));
    delete listing.failKeep;
    await reconcileHoldings({ ledger: async () => ledger, networks: [polygon.sources] });
    expect(polygon.unlistedRead()).toEqual(everyAddress.slice(0, EVERY_ADDRESS_PAGE));

    // No network reads beyond the list: no page is read, nothing is kept.
    const tronOnly = listingOf(everyAddress);
    const tron: NetworkReconcileSources = { network: 'tron', hotWalletAddress: async () => 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', usdtBalances: async () => new Map(), receipt: async () => null };
    const alone = await reconcileHoldings({ ledger: async () => ledgerWith({ everyDepositAddress: tronOnly }), networks: [tron] });
    expect(alone.everyDepositAddress).toBeNull();
    expect(tronOnly.kept).toBeNull();
  });
});
