import { describe, expect, it } from 'vitest';
import { reconcileHoldings, reconciliationReport, type LedgerSide, type NetworkReconcileSources } from '#functions/ledger/reconciliation';
import { usdt } from '../support/money.ts';

/**
 * reconcileHoldings over a ledger side and chains given as plain values (functions/ledger/reconciliation.ts):
 * what finance reads of the figures, the verdict and the report, without a table or a node.
 */
const HOT = '0x1111111111111111111111111111111111111111';
/** A ledger side that owes nothing and has nothing in flight: each test says what it has. */
const ledgerWith = (side: Partial<LedgerSide>): LedgerSide => ({ companiesUsdt: 0n, treasuryUsdt: 0n, netInflowUsdt: {}, processing: [], depositAddresses: {}, ...side });
const A = '0x2222222222222222222222222222222222222222';

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
      everyDepositAddress: [A],
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
    everyDepositAddress: [ETH_DEPOSIT],
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
