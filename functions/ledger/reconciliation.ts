import { formatAmount } from '../shared/money.ts';
import type { NetworkName } from '../networks/names.ts';
import { receivedBy, type TransactionReceipt } from '../networks/chain.ts';

/**
 * Do the wallets hold what the ledger says Cambio owes? On-chain USDT on the hot wallets and the
 * unswept deposit addresses of every network must equal the companies' balances (available +
 * pending + locked) plus Cambio's own USDT accounts (fees earned, USDT bought by the conversion
 * desk, the hot wallets' floats: functions/ledger/floats.ts), plus the recorded dust that has
 * gathered into whole micro-units (dustUsdt), less what has left on chain for withdrawals not yet settled in the ledger. Each network is
 * also reconciled alone, against its own flows (NetworkReconciliation; docs/reconciliation.md).
 */
export interface ReconciliationInputs {
  hotWalletUsdt: bigint;
  depositAddressesUsdt: bigint;
  companiesUsdt: bigint;
  treasuryUsdt: bigint;
  /** Withdrawals mined on chain but still `processing` in the ledger. */
  inFlightUsdt: bigint;
  /** What the token's issuer took from sweeps mined and not yet final: gone from the chain, booked
   * with the sweep once final (ledger.ts tokenFeeEntry). Zero while the fee is off; absent, zero. */
  sweepFeesInFlightUsdt?: bigint;
  /** Recorded dust (below 1e-6 USDT a transfer, never credited) that the USDT figures count, in
   * whole micro-units: remainders gathered at one address add up (NetworkReconciliation.dustUsdt).
   * Absent, zero. */
  dustUsdt?: bigint;
}

/** What the wallets hold against what the ledger owes: the outcome of the total's comparison and of each network's. */
export interface Comparison {
  onChain: bigint;
  owed: bigint;
  /** On chain minus owed: positive is a surplus, negative a shortfall. */
  difference: bigint;
  /** To the unit. */
  balanced: boolean;
  /**
   * A difference beyond RECONCILE_DUST, and which way: both are alarmed. A shortfall is customers'
   * money missing; a surplus is money the ledger cannot account for — a payout that never left
   * (two withdrawals collapsed into one transaction show only as a surplus), a deposit
   * not yet scanned, or a float sent by hand and not recorded — and each needs someone to look.
   */
  mismatch: 'surplus' | 'shortfall' | null;
}

export interface Reconciliation extends ReconciliationInputs, Comparison {
  sweepFeesInFlightUsdt: bigint;
  dustUsdt: bigint;
}

/** 0.01 USDT: below it, a difference is rounding dust, not money to chase. */
export const RECONCILE_DUST = 10_000n;

export function reconcile(inputs: ReconciliationInputs): Reconciliation {
  const sweepFeesInFlightUsdt = inputs.sweepFeesInFlightUsdt ?? 0n;
  const dustUsdt = inputs.dustUsdt ?? 0n;
  const owed = inputs.companiesUsdt + inputs.treasuryUsdt + dustUsdt - inputs.inFlightUsdt - sweepFeesInFlightUsdt;
  return { ...inputs, sweepFeesInFlightUsdt, dustUsdt, ...compare(inputs.hotWalletUsdt + inputs.depositAddressesUsdt, owed) };
}

function compare(onChain: bigint, owed: bigint): Comparison {
  const difference = onChain - owed;
  return { onChain, owed, difference, balanced: difference === 0n, mismatch: difference > RECONCILE_DUST ? 'surplus' : difference < -RECONCILE_DUST ? 'shortfall' : null };
}

/** The comparison as `npm run reconcile` prints it: the total, then each network where the
 * result has them (a network's line: what it holds, what the ledger took in there, the difference). */
export function reconciliationReport(result: Reconciliation | HoldingsReconciliation): string {
  const usdt = (value: bigint) => formatAmount(value, 'USDT').padStart(24);
  const perNetwork = 'networks' in result ? result.networks : [];
  const unexplained = 'unexplainedHeldUsdt' in result ? result.unexplainedHeldUsdt : 0n;
  const everyAddress = 'everyDepositAddress' in result ? result.everyDepositAddress : null;
  return [
    ...reportLines(result, usdt),
    // Never netted against a shortfall: USDT no one is owed is told apart from what is owed.
    ...(unexplained === 0n ? [] : [`unexplained, not counted    ${usdt(unexplained)}  USDT at deposit addresses the ledger lists nothing at: owed to no one, so not held against what is owed (by address below)`]),
    ...(perNetwork.length === 0 ? [] : ['', 'per network (on chain; credited there − paid out there − in flight; difference):']),
    ...perNetwork.map(
      (network) =>
        `${network.network.padEnd(9)} ${usdt(network.onChain)} ${usdt(network.owed)} ${usdt(network.difference)}  ${network.mismatch ?? (network.balanced ? 'balanced' : 'within dust')}` +
        (network.unexplainedHeldUsdt === 0n ? '' : `  unexplained ${formatAmount(network.unexplainedHeldUsdt, 'USDT')} not counted`) +
        (network.hotWalletGas === null ? '' : `  gas ${network.hotWalletGas}`) +
        nativeCoinAndDustReport(network),
    ),
    ...perNetwork.flatMap((network) =>
      network.unexplainedUsdt.map(
        ({ address, amount }) => `${network.network.padEnd(9)} ${usdt(amount)} at ${address}, which the ledger does not explain (paid on another network than its deposit's, or not yet scanned), not counted as held`,
      ),
    ),
    ...(everyAddress === null ? [] : ['', ...everyDepositAddressReport(everyAddress)]),
  ].join('\n');
}

/** How much of every deposit address the run read beyond the ledger's list, and how long a turn
 * through them all takes: USDT at an address the ledger does not list is found within one. */
function everyDepositAddressReport(coverage: EveryDepositAddressCoverage): string[] {
  const { read, pageSize, completedTurn, turn, lastTurn, notKept } = coverage;
  const turnLine = completedTurn
    ? `this run completed a turn: ${turn.entries} address(es) in ${turn.runs} run(s), ${turn.startedAt} to ${lastTurn!.endedAt}`
    : `the turn under way, begun ${turn.startedAt}, has read ${turn.entries} in ${turn.runs} run(s)` +
      (lastTurn === null ? '; no turn has completed yet' : `; the last full turn read ${lastTurn.entries} in ${lastTurn.runs} run(s), ${lastTurn.startedAt} to ${lastTurn.endedAt}`);
  return [
    `every deposit address, beyond the ledger's list: ${read} read this run (at most ${pageSize} a run, each network those of its form)`,
    `  ${turnLine}`,
    '  USDT at a deposit address the ledger does not list is found within one turn',
    ...(notKept === undefined ? [] : [`  WHERE THIS PAGE ENDED WAS NOT KEPT (${notKept}): the next run reads it again`]),
  ];
}

/** A network's native coin at deposit addresses (wei) and its dust (token base units), when any. */
function nativeCoinAndDustReport(network: NetworkReconciliation): string {
  const native = network.nativeAtDepositAddresses ?? [];
  const nativeTotal = native.reduce((sum, held) => sum + held.amount, 0n);
  const dust = network.dust;
  return (
    (native.length === 0 ? '' : `  native coin at ${native.length} deposit address(es) ${nativeTotal} (swept by the next sweep)`) +
    (dust === null || (dust.held === 0n && dust.recorded === 0n)
      ? ''
      : `  dust ${dust.held} held, ${dust.recorded} recorded` +
        (network.dustUsdt === 0n ? '' : ` (${formatAmount(network.dustUsdt, 'USDT')} USDT of it gathered into whole micro-units, counted in owed)`) +
        (dust.held === dust.recorded ? '' : dust.held > dust.recorded ? ' (UNRECORDED DUST)' : ' (recorded dust not found)'))
  );
}

function reportLines(result: Reconciliation, usdt: (value: bigint) => string): string[] {
  return [
    `hot wallet                  ${usdt(result.hotWalletUsdt)}`,
    `unswept deposit addresses   ${usdt(result.depositAddressesUsdt)}`,
    `= on chain                  ${usdt(result.onChain)}`,
    '',
    `company balances            ${usdt(result.companiesUsdt)}`,
    `+ Cambio's own USDT         ${usdt(result.treasuryUsdt)}`,
    ...(result.dustUsdt === 0n ? [] : [`+ dust, whole micro-units   ${usdt(result.dustUsdt)}`]),
    `- sent, not yet settled     ${usdt(result.inFlightUsdt)}`,
    ...(result.sweepFeesInFlightUsdt === 0n ? [] : [`- issuer's fee, sweeps not final ${usdt(result.sweepFeesInFlightUsdt).slice(5)}`]),
    `= owed                      ${usdt(result.owed)}`,
    '',
    result.balanced
      ? 'balanced'
      : result.mismatch === null
        ? `balanced within dust (${formatAmount(result.difference, 'USDT')} USDT)`
        : result.mismatch === 'surplus'
          ? `MISMATCH: ${formatAmount(result.difference, 'USDT')} USDT (surplus): the wallets hold more than the ledger owes (a payout that did not leave, a deposit not yet scanned, or a float sent by hand and not recorded with npm run float:record)`
          : `MISMATCH: ${formatAmount(result.difference, 'USDT')} USDT (shortfall): the wallets hold less than the ledger owes`,
  ];
}

/** A sweep sent and not yet settled: its transactions (every version: any one may be mined) and
 * the USDT it moves to the hot wallet. */
export interface SweepInFlight {
  network: NetworkName;
  txHashes: string[];
  /** What it was signed to move: exact where a sweep names its amount (a TRON transfer). */
  amount: bigint;
  /**
   * The addresses it empties, where what it moves is decided when it is mined rather than when it is
   * signed (an EVM sweep: each forwarder's flush moves its whole balance, a payment that landed
   * meanwhile too, a reorganised-away one not). Its fee is then read from its receipt alone
   * (sweepMovement), never inferred from `amount`. Absent: the sweep moves `amount` exactly.
   */
  from?: readonly string[];
}

/**
 * What a mined sweep moved, as its receipt shows it: `sent`, what left the swept addresses, and
 * `received`, what of it reached the hot wallet; the token issuer's fee is the difference (its
 * own Transfer event, from the swept address to the issuer). Where the sweep does not name its
 * addresses (SweepInFlight.from), it sent its `amount` and received what reached the hot wallet.
 * Null when the receipt gives no transfers.
 */
export function sweepMovement(
  receipt: TransactionReceipt,
  hotWallet: string,
  sweep: Pick<SweepInFlight, 'amount' | 'from'>,
  sameAddress: (a: string, b: string) => boolean,
): { sent: bigint; received: bigint } | null {
  if (!receipt.tokenTransfers) return null;
  if (!sweep.from) return { sent: sweep.amount, received: receivedBy(receipt, hotWallet, sameAddress)! };
  const swept = sweep.from;
  const fromSwept = receipt.tokenTransfers.filter((transfer) => transfer.from !== undefined && swept.some((address) => sameAddress(address, transfer.from!)));
  return {
    sent: fromSwept.reduce((sum, transfer) => sum + transfer.amount, 0n),
    received: receivedBy({ ...receipt, tokenTransfers: fromSwept }, hotWallet, sameAddress)!,
  };
}

/** The issuer's fee on a mined sweep (what left the swept addresses and did not reach the hot
 * wallet), or null when the receipt gives no transfers. Never negative. */
export function sweepIssuerFee(...args: Parameters<typeof sweepMovement>): bigint | null {
  const moved = sweepMovement(...args);
  return moved === null ? null : moved.sent > moved.received ? moved.sent - moved.received : 0n;
}

/** A family's reader of its sweeps in flight from reconcile's scan of the table, with the `type`
 * its sweep record is stored under: the Scan keeps only the kinds of item it reads (a filter on
 * `type`, functions/adapters/dynamo/reconciliation-store.ts), so a reader whose record it did not
 * name would never see a sweep. */
export type SweepInFlightReader = ((item: Record<string, unknown>) => SweepInFlight | null) & { readonly recordType: string };

/** A family's reader of its sweeps in flight from reconcile's one scan of the table
 * (functions/networks/record-registry.ts): of the items of its sweep's record, what each has in
 * flight (null: none, settled or not yet sent). */
export const sweepInFlightReader = <Sweep>(
  record: { type: string; isOne(item: Record<string, unknown>): boolean; fromItem(item: Record<string, unknown>): Sweep },
  inFlight: (sweep: Sweep) => SweepInFlight | null,
): SweepInFlightReader => Object.assign((item: Record<string, unknown>): SweepInFlight | null => (record.isOne(item) ? inFlight(record.fromItem(item)) : null), { recordType: record.type });

export interface LedgerSide {
  /** Every company's USDT: available + pending + locked. */
  companiesUsdt: bigint;
  /** Cambio's own USDT accounts (fees earned, the conversion desk, the hot wallets' floats). */
  treasuryUsdt: bigint;
  /** Per network, USDT credited from it less USDT paid out on it: what its `external:<network>`
   * account says Cambio took in there (docs/reconciliation.md). A network without entries is absent. */
  netInflowUsdt: Partial<Record<NetworkName, bigint>>;
  /** Withdrawals still `processing` in the ledger, each with its transactions: the one sent and, on
   * an EVM network, the earlier versions it replaced at a higher fee (any one of them may be the
   * one mined; Withdrawal.transaction.replacedTxHashes). */
  processing: { network: NetworkName; txHashes: string[]; amount: bigint }[];
  /** Sweeps sent and not yet settled: each one's transactions (an EVM sweep's replaced versions
   * too: any one may be mined) and the USDT it moves to the hot wallet. Absent: none read. */
  sweepsInFlight?: SweepInFlight[];
  /** Per network, the deposit addresses whose USDT is counted as held: see reconcileHoldings. */
  depositAddresses: Partial<Record<NetworkName, string[]>>;
  /** Every deposit address Cambio made, whatever its deposit's network, listed in the order made:
   * the networks that read every address of their form (NetworkSources.readsEveryDepositAddressOf)
   * read a page of it a run, in turn (everyDepositAddressPage). Absent: none read beyond the list. */
  everyDepositAddress?: EveryDepositAddressListing;
  /** Per network whose token has more than 6 decimals (BSC), the dust recorded (functions/deposits/
   * dust.ts): where each transfer's part below 1e-6 USDT went, in the token's base units. */
  dust?: Partial<Record<NetworkName, { address: string; amount: bigint }[]>>;
}

/** One network's chain, as reconciliation reads it. */
export interface NetworkSources {
  /** USDT held on chain by each of these addresses, in 6 decimals. */
  usdtBalances(addresses: string[]): Promise<Map<string, bigint>>;
  /** A sent transaction's receipt once it is in a block (null before): whether it succeeded, and
   * what its Transfer events moved (a sweep's fee: reconcileNetwork). */
  receipt(txHash: string): Promise<TransactionReceipt | null>;
  hotWalletAddress(): Promise<string>;
  /** The hot wallet's gas token (TRX in sun, ETH/BNB/POL in wei): reported beside the USDT, not
   * reconciled (gas is spent by design, and the ledger does not track it). */
  gasBalance?(address: string): Promise<bigint>;
  /** Native coin (ETH, BNB, POL) at each of these addresses, in wei: on a deposit address it is a
   * payer's mistake, reported (nativeAtDepositAddresses) until the sweeper moves it. */
  nativeBalances?(addresses: string[]): Promise<Map<string, bigint>>;
  /** What each of these addresses holds below 1e-6 USDT, in the token's base units; only where
   * the token has more than 6 decimals (BSC's 18): usdtBalances leaves it out. */
  usdtBelowMicro?(addresses: string[]): Promise<Map<string, bigint>>;
  /** The token's decimals on chain, given with usdtBelowMicro (BSC's 18): 10^(tokenDecimals − 6)
   * of its base units make one micro-unit. */
  tokenDecimals?: number;
  /** The network reads every deposit address Cambio made that this says is of its form, whatever
   * its deposit's network, a page a run in turn (EveryDepositAddressListing): where one address is
   * an address on several networks (the same 20 bytes on every EVM chain), USDT may be paid to it
   * on any, and is reported where it lands. */
  readsEveryDepositAddressOf?: (address: string) => boolean;
}

/**
 * Every deposit address Cambio made (every network's, in the order made), read a page at a time:
 * read whole, a stage's every address (100,000s to millions, unpaid and expired ones too) on every
 * network that reads beyond the ledger's list took a run past its 5 minutes and its memory, and
 * with it every network's reconciliation. So each run reads the page after where the last one
 * stopped (EveryDepositAddressTurn), at most EVERY_ADDRESS_PAGE entries, and a turn through the
 * whole listing takes (its size / EVERY_ADDRESS_PAGE) runs.
 */
export interface EveryDepositAddressListing {
  /** Where the turn through the listing stands, as the last run kept it; null before any run. */
  turn(): Promise<EveryDepositAddressTurn | null>;
  /** At most `limit` entries after the one whose place is `after` (from the start when null) and
   * made before `before` (ISO time), in order, each with its place (`sortKey`) for the next page. */
  listedAfter(after: string | null, before: string, limit: number): Promise<{ address: string; sortKey: string }[]>;
  /** Keeps the turn for the next run. */
  keepTurn(turn: EveryDepositAddressTurn): Promise<void>;
}

/** The turn through every deposit address: where the next page starts, and what the turn under way
 * and the last complete one read. */
export interface EveryDepositAddressTurn {
  /** The place of the last entry read (EveryDepositAddressListing.listedAfter); null: a new turn, from the start. */
  after: string | null;
  /** The turn under way: when its first page was read, and the entries and runs it has read. */
  startedAt: string;
  entries: number;
  runs: number;
  /** The last complete turn: the entries it read (the listing's size then), in how many runs, from
   * when to when. Null before one completed. */
  last: { entries: number; runs: number; startedAt: string; endedAt: string } | null;
}

/** What a run read of every deposit address: its page, and where the turn stands with it. */
export interface EveryDepositAddressCoverage {
  /** Entries this run read (every network's addresses: each network reads those of its form). */
  read: number;
  /** The most a run reads (EVERY_ADDRESS_PAGE). */
  pageSize: number;
  /** This run's page reached the listing's end: the turn is complete, the next run starts a new one. */
  completedTurn: boolean;
  /** The turn this page belongs to, with it: when it began, the entries and runs read in it. */
  turn: { startedAt: string; entries: number; runs: number };
  /** The last complete turn (this one, where this page completed it); null before one completed. */
  lastTurn: EveryDepositAddressTurn['last'];
  /** Why where this page ended could not be kept (the next run reads it again); absent when kept. */
  notKept?: string;
}

/** Listing entries a run reads at most, for the networks that read every deposit address of their
 * form: each such network asks its chain for at most this many addresses beyond the ledger's list
 * a run (a balanceOf each on an EVM network, and its native coin; BSC's token twice). */
export const EVERY_ADDRESS_PAGE = 5_000;

/** Addresses one balance read asks a chain for at once: a read of more goes in chunks this size,
 * one after another, so that no run sends thousands of calls to a node together nor holds their
 * answers all at once. */
export const CHAIN_READ_CHUNK = 500;

/** One network's chain as reconciliation reads it, named. */
export type NetworkReconcileSources = { network: NetworkName } & NetworkSources;

/** Each open network's chain (each family builds its own: NetworkChains.reconcileSources), with the one ledger. */
export interface ReconciliationSources {
  ledger(): Promise<LedgerSide>;
  networks: NetworkReconcileSources[];
  /** The run's time (the turn through every deposit address is dated with it); absent, the clock's. */
  now?: () => Date;
}

/**
 * One network reconciled: its hot wallet and unswept deposit addresses against what the ledger
 * says came in on it and has not gone out (docs/reconciliation.md). The company balance is one
 * USDT balance across networks, so a network's figure is its flows, not a share of balances:
 * `owed` = deposits credited on it − withdrawals and split forwards paid on it − those mined and
 * not yet settled. USDT moved between networks by hand (a float, a rebalance) shows as equal and
 * opposite differences on two networks while the total still balances.
 */
export interface NetworkReconciliation extends Comparison {
  network: NetworkName;
  hotWalletUsdt: bigint;
  /** USDT at the deposit addresses the ledger lists on the network; not those in unexplainedUsdt. */
  depositAddressesUsdt: bigint;
  netInflowUsdt: bigint;
  inFlightUsdt: bigint;
  sweepFeesInFlightUsdt: bigint;
  depositAddressesRead: number;
  /**
   * USDT (6 decimals) at deposit addresses the ledger lists nothing at on this network: a payment
   * to an EVM deposit address on another EVM network than its deposit's (not credited; recovered
   * through that network's factory), or one the scanner has not read yet. No one is owed it, so it
   * is not held against what is owed (not in `depositAddressesUsdt` nor `onChain`): counted there,
   * it would cancel a shortfall of the same size. Reported apart (unexplainedHeldUsdt, its sum).
   * Empty on TRON, where every address read is a listed one.
   */
  unexplainedUsdt: { address: string; amount: bigint }[];
  /** The sum of unexplainedUsdt. */
  unexplainedHeldUsdt: bigint;
  /** The hot wallet's gas token in its smallest unit; null where not read. */
  hotWalletGas: bigint | null;
  /** Deposit addresses holding native coin (ETH, BNB, POL), in wei: not company money, not in the
   * USDT figures, but not to be left there (the sweeper moves it to the hot wallet). Null where
   * not read (TRON). */
  nativeAtDepositAddresses: { address: string; amount: bigint }[] | null;
  /** Dust in the token's base units: `held`, what the network holds below 1e-6 USDT (at the hot
   * wallet, the deposit addresses read and the addresses dust was recorded at) together with the
   * whole micro-units that such remainders have gathered into at one address (dustUsdt), against
   * `recorded`, the dust recorded there: equal when every sub-micro remainder is explained, and then
   * what is held in base units is exactly owed × 10^(decimals − 6) + the dust recorded. Null on a
   * network whose token has 6 decimals. */
  dust: { held: bigint; recorded: bigint } | null;
  /**
   * The recorded dust that the USDT figures count, in whole micro-units, and so counted in `owed`:
   * each address's USDT is read in whole micro-units, and remainders no one was credited add up
   * where they gather (two payments of 1.0000005 USDT to one address hold 2.000001; a sweep
   * carries every swept address's remainder to the hot wallet). The recorded dust less what the
   * network holds below 1e-6, to the nearest micro-unit, between zero and the whole micro-units
   * recorded (nativeCoinAndDust). Zero where no dust.
   */
  dustUsdt: bigint;
}

/** The whole of it: the total (TRON's comparison of old, now summed over networks) and each network;
 * and, apart from both, the USDT at deposit addresses the ledger lists nothing at (each network's
 * unexplainedHeldUsdt, summed), which neither compares. */
export type HoldingsReconciliation = Reconciliation & {
  depositAddressesRead: number;
  unexplainedHeldUsdt: bigint;
  networks: NetworkReconciliation[];
  /** This run's page of every deposit address and where the turn through them stands; null where
   * no network reads beyond the ledger's list (TRON alone) or the ledger side lists none. */
  everyDepositAddress: EveryDepositAddressCoverage | null;
};

/**
 * Do the wallets hold what the ledger owes, in total and on each network? Which deposit addresses
 * are read: a sweep moves USDT from a deposit address to the hot wallet and changes no balance
 * (functions/networks/<family>/sweeps.ts), so what Cambio holds on chain is the hot wallet
 * plus whatever USDT is still on deposit addresses. The ledger knows which addresses may still hold
 * some: those with a transfer seen and still confirming, those with a confirmed transfer the
 * sweeper has not yet moved (its sweep-due list), and those the sweeper left holding less than its
 * minimum. An address outside that list holds nothing the ledger counts, so reading only the
 * listed ones can under-count the holdings, never over-count them: a gap can make a false
 * shortfall, but cannot hide a real one. USDT on an unlisted address is money not owed to
 * anyone yet: a transfer the scanner has not seen, or on an EVM network a payment to an EVM deposit
 * address on another network than its deposit's (../shared/networks.md: reconcile reports USDT at
 * any Cambio address that the ledger lacks). The sandbox TRON chain, which answers every deposit
 * address in one read, counts it as held (every address is listed there: a surplus); each EVM
 * network (and Solana), which reads the EVM (Solana) deposit addresses Cambio made beyond the list,
 * a page of them a run in turn (EveryDepositAddressListing: USDT landed at one is found within one
 * turn), lists each such address holding USDT (unexplainedUsdt) and does not count it as held, so
 * that it cannot cancel a shortfall of the same size; it is reported apart (unexplainedHeldUsdt).
 * Chains are asked for CHAIN_READ_CHUNK addresses at a time, one chunk after another.
 *
 * The reads run in an order that turns the races with the running jobs into surpluses, not
 * shortfalls: the list is taken after the balances (funds credited by then are listed, or were
 * swept), on each network the hot wallet is read after the deposit addresses (a sweep landing
 * between the two reads is counted twice rather than missed), and receipts after the hot wallet (a
 * withdrawal mined between those is subtracted from owed while still counted as held). One race is
 * left: a withdrawal still pending when the ledger was read and mined before the hot wallet is read
 * shows as a shortfall for that run (the alarm waits for two runs in a row).
 */
export async function reconcileHoldings(sources: ReconciliationSources): Promise<HoldingsReconciliation> {
  const ledger = await sources.ledger();
  const now = (sources.now ?? (() => new Date()))();
  const readsBeyondList = sources.networks.some((chain) => chain.readsEveryDepositAddressOf);
  const page = readsBeyondList && ledger.everyDepositAddress ? await everyDepositAddressPage(ledger.everyDepositAddress, now) : null;
  const networks: NetworkReconciliation[] = [];
  for (const chain of sources.networks) {
    const ofItsForm = chain.readsEveryDepositAddressOf && page ? page.addresses.filter(chain.readsEveryDepositAddressOf) : [];
    networks.push(await reconcileNetwork(chain.network, chain, ledger, ofItsForm));
  }
  // Only once every network has read the page: a run that fails before reads it again next time.
  const everyDepositAddress = page && ledger.everyDepositAddress ? await keptTurn(ledger.everyDepositAddress, page) : null;
  const sum = (pick: (network: NetworkReconciliation) => bigint | number) => networks.reduce((total, network) => total + BigInt(pick(network)), 0n);
  const total = reconcile({
    hotWalletUsdt: sum((network) => network.hotWalletUsdt),
    depositAddressesUsdt: sum((network) => network.depositAddressesUsdt),
    companiesUsdt: ledger.companiesUsdt,
    treasuryUsdt: ledger.treasuryUsdt,
    inFlightUsdt: sum((network) => network.inFlightUsdt),
    sweepFeesInFlightUsdt: sum((network) => network.sweepFeesInFlightUsdt),
    dustUsdt: sum((network) => network.dustUsdt),
  });
  return {
    ...total,
    depositAddressesRead: Number(sum((network) => network.depositAddressesRead)),
    unexplainedHeldUsdt: sum((network) => network.unexplainedHeldUsdt),
    networks,
    everyDepositAddress,
  };
}

/** A run's page of every deposit address: its addresses, the turn as it stands with them read, and
 * what the report says of it. */
interface EveryDepositAddressPage {
  addresses: string[];
  next: EveryDepositAddressTurn;
  coverage: EveryDepositAddressCoverage;
}

/**
 * The page after where the last run stopped: EVERY_ADDRESS_PAGE entries, or what is left of the
 * listing, which ends the turn (the next run starts from the beginning). Entries made since this run
 * began wait for the next turn; an address made meanwhile that holds USDT the ledger counts is on
 * the ledger's list anyway. So USDT landing at an address the ledger does not list is read within
 * one turn of landing (a turn's runs, the report's `lastTurn`).
 */
async function everyDepositAddressPage(listing: EveryDepositAddressListing, now: Date): Promise<EveryDepositAddressPage> {
  const at = now.toISOString();
  const kept = (await listing.turn()) ?? { after: null, startedAt: at, entries: 0, runs: 0, last: null };
  const turn = kept.after === null ? { ...kept, startedAt: at, entries: 0, runs: 0 } : kept;
  // One entry more than a page says whether the listing goes on past it.
  const read = await listing.listedAfter(turn.after, at, EVERY_ADDRESS_PAGE + 1);
  const entries = read.slice(0, EVERY_ADDRESS_PAGE);
  const completedTurn = read.length <= EVERY_ADDRESS_PAGE;
  const sofar = { startedAt: turn.startedAt, entries: turn.entries + entries.length, runs: turn.runs + 1 };
  const last = completedTurn ? { entries: sofar.entries, runs: sofar.runs, startedAt: sofar.startedAt, endedAt: at } : turn.last;
  const next: EveryDepositAddressTurn = completedTurn ? { after: null, startedAt: at, entries: 0, runs: 0, last } : { after: entries.at(-1)!.sortKey, ...sofar, last };
  return { addresses: entries.map(({ address }) => address), next, coverage: { read: entries.length, pageSize: EVERY_ADDRESS_PAGE, completedTurn, turn: sofar, lastTurn: last } };
}

/** The coverage of a page read, once its end is kept for the next run. A failure to keep it is
 * reported, not thrown: the comparison is made and published (its shortfall is what matters), and
 * the next run reads the same page again. */
async function keptTurn(listing: EveryDepositAddressListing, page: EveryDepositAddressPage): Promise<EveryDepositAddressCoverage> {
  try {
    await listing.keepTurn(page.next);
    return page.coverage;
  } catch (error) {
    return { ...page.coverage, notKept: String(error) };
  }
}

/** `read` over `addresses` in chunks of CHAIN_READ_CHUNK, one after another, the answers together. */
async function readInChunks(read: (addresses: string[]) => Promise<Map<string, bigint>>, addresses: readonly string[]): Promise<Map<string, bigint>> {
  const answers = new Map<string, bigint>();
  for (let start = 0; start < addresses.length; start += CHAIN_READ_CHUNK) {
    for (const [address, value] of await read(addresses.slice(start, start + CHAIN_READ_CHUNK))) answers.set(address, value);
  }
  return answers;
}

/** `everyAddress`: Cambio's addresses on the network beyond those the ledger lists (an EVM network's:
 * the EVM deposit addresses of this run's page of every address), read too; USDT there is listed as
 * unexplained, apart from what is held. */
async function reconcileNetwork(network: NetworkName, chain: NetworkSources, ledger: LedgerSide, everyAddress: string[]): Promise<NetworkReconciliation> {
  const hotWallet = await chain.hotWalletAddress();
  const listed = new Set(ledger.depositAddresses[network] ?? []);
  const depositAddresses = [...new Set([...listed, ...everyAddress])].filter((address) => address !== hotWallet);
  const onDepositAddresses = await readInChunks(chain.usdtBalances.bind(chain), depositAddresses);
  const onHotWallet = await chain.usdtBalances([hotWallet]);
  let inFlightUsdt = 0n;
  for (const withdrawal of ledger.processing) {
    if (withdrawal.network === network && (await minedVersion(chain, withdrawal.txHashes))) inFlightUsdt += withdrawal.amount;
  }
  const sweepFeesInFlightUsdt = await sweepFeesInFlight(network, chain, ledger, hotWallet);
  const hotWalletUsdt = onHotWallet.get(hotWallet) ?? 0n;
  const unexplainedUsdt = depositAddresses.flatMap((address) => {
    const amount = listed.has(address) ? 0n : (onDepositAddresses.get(address) ?? 0n);
    return amount > 0n ? [{ address, amount }] : [];
  });
  const unexplained = new Set(unexplainedUsdt.map(({ address }) => address));
  const depositAddressesUsdt = depositAddresses.reduce((sum, address) => sum + (listed.has(address) ? (onDepositAddresses.get(address) ?? 0n) : 0n), 0n);
  const netInflowUsdt = ledger.netInflowUsdt[network] ?? 0n;
  const { nativeAtDepositAddresses, dust, dustUsdt } = await nativeCoinAndDust(network, chain, ledger, hotWallet, depositAddresses, unexplained);
  return {
    network,
    hotWalletUsdt,
    depositAddressesUsdt,
    netInflowUsdt,
    inFlightUsdt,
    sweepFeesInFlightUsdt,
    dustUsdt,
    ...compare(hotWalletUsdt + depositAddressesUsdt, netInflowUsdt + dustUsdt - inFlightUsdt - sweepFeesInFlightUsdt),
    depositAddressesRead: depositAddresses.length,
    unexplainedUsdt,
    unexplainedHeldUsdt: unexplainedUsdt.reduce((sum, { amount }) => sum + amount, 0n),
    hotWalletGas: chain.gasBalance ? await chain.gasBalance(hotWallet) : null,
    nativeAtDepositAddresses,
    dust,
  };
}

/** The receipt of the version of a payout or sweep (the same nonce and transfer, each replacing the
 * one before at a higher fee) that is in a block and succeeded, or null. Only one version can be
 * mined, and it may be an earlier one: what it moved has left, whichever it is, and counts once. */
async function minedVersion(chain: NetworkSources, txHashes: string[]): Promise<TransactionReceipt | null> {
  for (const txHash of txHashes) {
    const receipt = await chain.receipt(txHash);
    if (receipt?.result === 'SUCCESS') return receipt;
  }
  return null;
}

/**
 * The issuer's fee on the network's sweeps mined and not yet final. A sweep's fee is booked when
 * the sweep settles, at finality (a reorganisation could still undo it), but the hot wallet holds
 * the amount less the fee from the block it is mined in: without this, every sweep under a fee
 * would show as a shortfall for a minute (TRON) or more (EVM depth). Read after the hot wallet,
 * like the withdrawals in flight: a sweep mined between the deposit addresses' read and the hot
 * wallet's is counted twice (a surplus for that run), as it is without a fee.
 */
async function sweepFeesInFlight(network: NetworkName, chain: NetworkSources, ledger: LedgerSide, hotWallet: string): Promise<bigint> {
  // TRON's base58 addresses are case-sensitive; an EVM address is the same in any letter case.
  // An EVM log writes an address in lower case, a stored one is EIP-55; base58check addresses
  // (TRON) compare alike, since two valid ones differing only in letter case would need a
  // checksum collision.
  const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  // Before any version has a successful receipt nothing has moved: the swept addresses still hold
  // their USDT, read with the deposit addresses, and there is no fee to count.
  let fees = 0n;
  for (const sweep of ledger.sweepsInFlight ?? []) {
    if (sweep.network !== network) continue;
    const receipt = await minedVersion(chain, sweep.txHashes);
    if (receipt) fees += sweepIssuerFee(receipt, hotWallet, sweep, sameAddress) ?? 0n;
  }
  return fees;
}

/**
 * Beside the USDT, what reconcile reports of a network and does not reconcile: native coin
 * at its deposit addresses (a payer's mistake, which the next sweep moves to the hot wallet); and
 * the dust below 1e-6 USDT that a token with more decimals leaves (../shared/networks.md: recorded,
 * never credited, never lost from reconcile), which it does reconcile, exactly.
 *
 * Each transfer's remainder below 1e-6 is recorded, but each address's USDT is read in whole
 * micro-units, and remainders add up where they meet: two ordinary payments of 1.0000005 USDT to
 * one address hold 2.000001 USDT there, credited 2.000000 and 0.000001 recorded as dust; a sweep
 * takes every swept address's remainder to the hot wallet, where they keep adding up, a micro-unit
 * for every two such payments. No payout takes any dust (payouts are whole micro-units). So the
 * exact statement, in the token's base units, is: held = owed × 10^(decimals − 6) + recorded dust.
 * It is kept as two: the whole micro-units the recorded dust has gathered into (dustUsdt) are
 * owed beside the flows, and the rest is the dust check, `held` (what the addresses hold below
 * 1e-6, plus dustUsdt) against `recorded`. dustUsdt is the recorded dust less what is held below
 * 1e-6, to the nearest micro-unit (exact when every remainder is recorded), never negative and
 * never more than the whole micro-units recorded: sub-micro USDT no record explains shows as
 * UNRECORDED DUST, recorded dust missing as `recorded dust not found`, and a shortfall beyond
 * them still as a shortfall (dustUsdt reads only what lies below 1e-6 and the records). What lies
 * below 1e-6 is read after the USDT: a sweep mined between the two reads can move a micro-unit
 * between them for that run, within dust.
 */
async function nativeCoinAndDust(
  network: NetworkName,
  chain: NetworkSources,
  ledger: LedgerSide,
  hotWallet: string,
  depositAddresses: string[],
  /** Deposit addresses holding USDT no one is owed: what they hold below 1e-6 is no one's dust either, unless dust was recorded there. */
  unexplained: ReadonlySet<string>,
): Promise<Pick<NetworkReconciliation, 'nativeAtDepositAddresses' | 'dust' | 'dustUsdt'>> {
  const native = chain.nativeBalances && depositAddresses.length > 0 ? await readInChunks(chain.nativeBalances.bind(chain), depositAddresses) : new Map<string, bigint>();
  const nativeAtDepositAddresses = chain.nativeBalances
    ? depositAddresses.flatMap((address) => ((native.get(address) ?? 0n) > 0n ? [{ address, amount: native.get(address)! }] : []))
    : null;
  if (!chain.usdtBelowMicro) return { nativeAtDepositAddresses, dust: null, dustUsdt: 0n };
  if (chain.tokenDecimals === undefined || chain.tokenDecimals <= 6) throw new Error(`${network} reads USDT below 1e-6 without naming its token's decimals (more than 6)`);
  const perMicro = 10n ** BigInt(chain.tokenDecimals - 6);
  const recordedDust = ledger.dust?.[network] ?? [];
  const addresses = [...new Set([hotWallet, ...depositAddresses.filter((address) => !unexplained.has(address)), ...recordedDust.map((dust) => dust.address)])];
  const below = await readInChunks(chain.usdtBelowMicro.bind(chain), addresses);
  const heldBelow = addresses.reduce((sum, address) => sum + (below.get(address) ?? 0n), 0n);
  const recorded = recordedDust.reduce((sum, dust) => sum + dust.amount, 0n);
  const gathered = recorded - heldBelow;
  const nearest = gathered > 0n ? (gathered + perMicro / 2n) / perMicro : 0n;
  const dustUsdt = nearest < recorded / perMicro ? nearest : recorded / perMicro;
  return { nativeAtDepositAddresses, dust: { held: heldBelow + dustUsdt * perMicro, recorded }, dustUsdt };
}
