import type { EvmNetworkName } from '../names.ts';
import type { ChainBlock, TransactionReceipt } from '../chain.ts';
import { sweepMovement } from '../../ledger/reconciliation.ts';
import { sameEvmAddress } from './evm-address.ts';
import { tokenFeeEntry, type LedgerEntry } from '../../ledger/ledger.ts';
import type { EvmPayouts, SignedPayout } from './withdrawal-sending.ts';
import { broadcastOrFill, countAtFinal, dueForReplacement, nonceHolder, nonceOutcome, replaceOrRebroadcast, replaceUnmined, takenAt, withNextNonce, type EvmReceiptReader, type NonceFiller, type NonceSequence, type NonceSlot, type ReplaceableTransaction, type VersionFields } from './nonce-sequence.ts';
import { DEFAULT_REPLACE_AFTER_SECONDS } from './settings.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { setAsideFrozen, type FrozenAddressList, type FrozenAmong } from '../../deposits/frozen-addresses.ts';
import { duePages } from '../../deposits/due-list.ts';
import { NO_COUNTS, wholeSweepOf, type CountsTaken, type SweepCounts } from '../../deposits/sweep-amount.ts';
import { EVM_NETWORKS } from './networks.ts';

/**
 * Sweeps on an EVM network: a credited deposit's USDT waits at its CREATE2 forwarder address,
 * which has no code yet (functions/networks/evm/forwarder-address.ts). The factory's batch `sweep`
 * (contracts/DepositForwarderFactory.sol), called by the hot wallet that owns it, deploys each
 * forwarder and flushes it to the hot wallet: many addresses in one transaction, paid by the hot
 * wallet's gas alone (no top-up per address, no key per address, as TRON needs: sweeps.ts).
 *
 * - The sweep is signed with the next nonce of the hot wallet's one sequence on the network, the
 *   sequence the withdrawal sender uses (functions/networks/evm/nonce-sequence.ts): the nonce is
 *   claimed in the DynamoDB transaction that stores the signed sweep, before its broadcast, so a
 *   sweep and a withdrawal never share a nonce and a crash leaves either nothing or a stored sweep
 *   that the next run broadcasts again.
 * - A sweep ends `done` when its receipt's block is final (and still the node's), `failed` when it
 *   reverted or its nonce was filled after a refusal for good; its addresses stay due either way
 *   until a run finds them empty (below the minimum: listed for reconciliation), so a failed batch
 *   is swept again.
 * - The ledger does not change: treasury moves between Cambio's own wallets. Each sweep is kept,
 *   with what each forwarder held when it was signed, for reconciliation.
 * - Native coin (ETH, BNB, POL) a payer sent to a deposit address by mistake rides in the same
 *   batch: the factory's sweep moves a forwarder's native balance beside its USDT. Any deposit
 *   address may hold some, paid or not, so each run reads the native balances of the due addresses
 *   and of the next page of every deposit address (one eth_call for many: EvmChain.nativeBalances).
 *   It is not a company's money and the ledger, in USDT, does not book it: the sweep keeps what each
 *   forwarder held (`native`, in wei), for finance and for the hot wallet's gas, which it joins.
 */
export type EvmSweepStatus = 'sending' | 'done' | 'failed';

export interface SweptForwarder {
  address: string;
  /** Its deposit, whose id is the forwarder's CREATE2 salt. */
  depositId: string;
  /** USDT it held when the sweep was signed, in 6 decimals. The factory moves its whole balance
   * when the sweep is mined: more, if a payment arrived meanwhile. */
  amount: bigint;
  /** Native coin (ETH, BNB, POL) it held when the sweep was signed, in wei; absent when none. The
   * factory moves its whole native balance too. */
  native?: bigint;
  /** What it takes off the address's counts as planned (sweep-amount.ts); absent where they were
   * never kept. Once done, what the receipt shows the forwarder sent is taken off instead. */
  takenOffCounts?: CountsTaken;
}

export interface EvmSweep extends ReplaceableTransaction {
  id: string;
  network: EvmNetworkName;
  status: EvmSweepStatus;
  /** The hot wallet: the signer, the factory's owner, where the USDT goes. */
  wallet: string;
  forwarders: SweptForwarder[];
  /** What the forwarders held when it was signed, together. */
  amount: bigint;
  /** Once done: the USDT its receipt shows the forwarders sent, their whole balances when it was
   * mined (more than `amount` when a payment landed meanwhile, less when one was reorganised away).
   * The hot wallet received this less the issuer's fee, which the sweep books. */
  moved?: bigint;
  /** Their native coin when it was signed, together, in wei (0 for most sweeps). */
  nativeAmount: bigint;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The network's side (functions/networks/evm/evm-payouts.ts). */
export interface EvmSweepPayouts extends Pick<EvmPayouts, 'wallet' | 'signedFiller' | 'signedWithMoreGas' | 'broadcast' | 'signedReplacement'> {
  /** The factory's sweep of these deposits' forwarders to the hot wallet, signed with `nonce`;
   * null when the node says it would revert (the factory not owned by the hot wallet, say). */
  signedSweep(input: { nonce: number; depositIds: string[] }): Promise<SignedPayout | null>;
}

export interface DueForwarder {
  address: string;
  depositId: string;
}

export interface EvmSweepStore extends NonceSequence, FrozenAddressList {
  /** The next `limit` deposit addresses (EVM ones, of any network) after those the last call
   * returned, wrapping round to the first: every address is read for native coin in turn. */
  nextAddressesToCheckForNative(limit: number): Promise<DueForwarder[]>;
  /** The network's deposit addresses with a credited deposit since their last sweep, a page of at
   * most `limit` in address order after `after`, and where the next page starts (null at the end):
   * a page can come back short while more follow (an address with a payment confirming is left out). */
  dueAddresses(limit: number, after?: string): Promise<{ due: DueForwarder[]; next: string | null }>;
  /** Nothing (more) to sweep there until a new deposit is credited; `remaining`, below the minimum,
   * stays listed for reconciliation. */
  clearDue(address: string, remaining: bigint): Promise<void>;
  openSweeps(): Promise<EvmSweep[]>;
  /** One transaction: the sweep is stored and `slot`'s nonce taken for it. 'nonce-taken': another
   * signer has the nonce, nothing is written. */
  storeSweep(sweep: EvmSweep, slot: NonceSlot): Promise<'written' | 'nonce-taken'>;
  /** Writes `after` if the sweep is still as `before` (status and updatedAt). */
  saveSweep(before: EvmSweep, after: EvmSweep, tokenFee?: LedgerEntry | null): Promise<boolean>;
  /** What each address's counts allow a sweep to take (sweep-amount.ts), read consistently. */
  sweepCountsAtEach(addresses: string[]): Promise<Map<string, SweepCounts>>;
  /** A landed sweep's amounts off its addresses' counts, once per sweep whatever the retries. */
  takeOffCounts(sweepId: string, taken: { address: string; taken: CountsTaken }[]): Promise<void>;
}

export interface EvmSweepDeps {
  network: EvmNetworkName;
  chain: EvmReceiptReader;
  payouts: EvmSweepPayouts;
  store: EvmSweepStore;
  /** USDT held by each address, in 6 decimals. */
  usdtBalances(addresses: string[]): Promise<Map<string, bigint>>;
  /** Native coin at deposit addresses; absent, none is read or swept. */
  native?: NativeCoinReads;
  /** `minimumSweep`: USDT below which an address is not worth its gas; `minimumNative`: native coin,
   * in wei, below which it is not either (it rides along when the address is swept for its USDT);
   * `batchSize`: the most forwarders in one sweep (its gas grows by ~54k with each new one). */
  settings: { minimumSweep: bigint; minimumNative: bigint; batchSize: number };
  /** A sweep the node took this long ago and has not mined is replaced at a higher fee
   * (EVM_NETWORKS replaceAfterSeconds). Absent: DEFAULT_REPLACE_AFTER_SECONDS. */
  replaceAfterMs?: number;
  /** The issuer's freeze list: a frozen forwarder is set aside, never put in a batch (frozen-addresses.ts). */
  frozenAmong?: FrozenAmong;
  now?: () => Date;
  log?: Log;
}

export interface NativeCoinReads {
  /** Wei held by each address, for many at once (EvmChain.nativeBalances: one eth_call). */
  balances(addresses: string[]): Promise<Map<string, bigint>>;
  /** Whether `address` is where this network's factory deploys `depositId`'s forwarder. A deposit
   * address issued on another EVM network is the same 20 bytes here, but where that network's
   * factory is at another address the sweep would empty another address, and this one come round
   * again run after run. */
  isForwarderOf(address: string, depositId: string): boolean;
}

/** Deposit addresses read for native coin each run beside the due ones: a page of every address,
 * in turn. Each is ~2,700 gas of the one eth_call that reads them, and a DynamoDB item read. */
export const NATIVE_CHECKS_PER_RUN = 500;

export interface EvmSweepResult {
  /** Sweep transactions signed, stored and broadcast this run (one at most). */
  sent: number;
  /** Forwarders in them. */
  forwarders: number;
  rebroadcast: number;
  done: number;
  failed: number;
  /** Due addresses found below the minimum (or emptied by a sweep): no longer due. */
  cleared: number;
  /** A batch the node said would revert: nothing was signed. Someone should look. */
  wouldRevert: number;
  /** Sweeps replaced at a higher fee this run. */
  replaced: number;
  /** Sweeps due for a replacement that the fee cap forbids: they wait, and devops is alarmed. */
  feeCapReached: number;
  /** Due forwarders the issuer has frozen, set aside this run: one in a batch would revert it whole. */
  frozen: number;
  /** Due forwarders left out this run: they hold USDT the scanner has not recorded yet. */
  waiting: number;
  /** Forwarders in this run's sweep that held native coin (ETH, BNB, POL). */
  nativeForwarders: number;
}

/** Settles the open sweeps, then sweeps one batch of the due forwarders. */
export async function sweepEvmDepositAddresses(deps: EvmSweepDeps): Promise<EvmSweepResult> {
  const now = deps.now ?? (() => new Date());
  const result: EvmSweepResult = { sent: 0, forwarders: 0, rebroadcast: 0, done: 0, failed: 0, cleared: 0, wouldRevert: 0, replaced: 0, feeCapReached: 0, frozen: 0, waiting: 0, nativeForwarders: 0 };
  const open = await settleSweeps(deps, result, now);
  const batch = await nextBatch(deps, open, result);
  if (batch.length === 0) return result;
  const sweep = await signAndStore(deps, batch, now);
  if (sweep === 'would-revert') {
    (deps.log ?? stderrLog).error('the sweep would revert; nothing signed', { network: deps.network, forwarders: batch.length });
    result.wouldRevert++;
    return result;
  }
  if (sweep === 'busy') return result;
  result.sent++;
  result.forwarders += batch.length;
  result.nativeForwarders += batch.filter((forwarder) => forwarder.native).length;
  try {
    await broadcastSweep(deps, sweep, now);
  } catch (error) {
    // Stored and signed: the next run broadcasts it again.
    (deps.log ?? stderrLog).error('sweep broadcast failed; will retry', { network: deps.network, sweepId: sweep.id, error: String(error) });
  }
  return result;
}

/**
 * The due forwarders worth sweeping, up to a batch, read a page at a time: those a finished sweep
 * emptied (or below the minimum) are cleared on the way, so they never fill a page run after run.
 * A forwarder in a sweep not yet final waits for it: a second sweep would find it empty.
 * A due forwarder holding native coin is swept whatever its USDT; then the deposit addresses that
 * are not due and hold native coin (nativeOnly).
 */
async function nextBatch(deps: EvmSweepDeps, open: EvmSweep[], result: EvmSweepResult): Promise<SweptForwarder[]> {
  const sweeping = new Set(open.flatMap((sweep) => sweep.forwarders.map((forwarder) => forwarder.address)));
  const batch: SweptForwarder[] = [];
  // Read before the due pages, so that their native balances go in the first page's one read.
  const toCheck = deps.native ? (await deps.store.nextAddressesToCheckForNative(NATIVE_CHECKS_PER_RUN)).filter((forwarder) => !sweeping.has(forwarder.address)) : [];
  const wasDue = new Set<string>();
  let nativeHeld = new Map<string, bigint>();
  let firstPage = true;
  // The token's base units in 1e-6 USDT: what recorded dust rounds a balance up by (unrecordedAt).
  const unit = 10n ** BigInt(EVM_NETWORKS[deps.network].tokenDecimals - 6);
  for await (const page of duePages(deps.store, deps.settings.batchSize, () => batch.length < deps.settings.batchSize)) {
    const unswept = page.filter((forwarder) => !sweeping.has(forwarder.address));
    const frozen = deps.frozenAmong ? await setAsideFrozen(deps.store, deps.frozenAmong, unswept.map((forwarder) => forwarder.address), deps.usdtBalances) : new Set<string>();
    result.frozen += frozen.size;
    const due = unswept.filter((forwarder) => !frozen.has(forwarder.address));
    for (const forwarder of page) wasDue.add(forwarder.address);
    const nativeToRead = [...due.map((forwarder) => forwarder.address), ...(firstPage ? toCheck.map((forwarder) => forwarder.address) : [])];
    firstPage = false;
    const [counts, held, native] = await Promise.all([
      due.length === 0 ? new Map<string, SweepCounts>() : deps.store.sweepCountsAtEach(due.map((forwarder) => forwarder.address)),
      due.length === 0 ? new Map<string, bigint>() : deps.usdtBalances(due.map((forwarder) => forwarder.address)),
      deps.native && nativeToRead.length > 0 ? nativeBalancesOrNone(deps, [...new Set(nativeToRead)]) : new Map<string, bigint>(),
    ]);
    nativeHeld = new Map([...nativeHeld, ...native]);
    for (const forwarder of due) {
      const amount = held.get(forwarder.address) ?? 0n;
      const coin = native.get(forwarder.address) ?? 0n;
      // The flush moves the whole balance, a payment the scanner has not recorded (nor screened)
      // with the rest: the forwarder waits, still due, until it is recorded (confirming, it is off
      // the due page until judged; credited, swept whole; a sanctioned payer's, held in place).
      const whole = wholeSweepOf(amount, counts.get(forwarder.address) ?? NO_COUNTS, unit, deps.log ?? stderrLog, { network: deps.network, address: forwarder.address });
      if ('waits' in whole) {
        if (whole.waits === 'unrecorded') result.waiting++;
        continue;
      }
      if (amount < deps.settings.minimumSweep && coin < deps.settings.minimumNative) {
        await deps.store.clearDue(forwarder.address, amount);
        result.cleared++;
      } else if (batch.length < deps.settings.batchSize) {
        // Below the minimum yet holding native coin worth its gas: swept for it, USDT and all; it
        // stays due until a run finds it empty, as any swept address.
        batch.push({ ...forwarder, amount, ...(coin > 0n && { native: coin }), ...(whole.takenOffCounts && { takenOffCounts: whole.takenOffCounts }) });
      }
    }
  }
  if (batch.length < deps.settings.batchSize) batch.push(...(await nativeOnly(deps, toCheck, wasDue, nativeHeld, deps.settings.batchSize - batch.length)));
  return batch;
}

/** Native balances, or none when they cannot be read (a node's error; a factory deployed before it
 * had nativeBalances, as on an anvil state saved earlier): the USDT is swept all the same, and the
 * native coin waits for a run that reads it. */
async function nativeBalancesOrNone(deps: EvmSweepDeps, addresses: string[]): Promise<Map<string, bigint>> {
  try {
    return await deps.native!.balances(addresses);
  } catch (error) {
    (deps.log ?? stderrLog).error('native coin balances not read; USDT swept without them', { network: deps.network, addresses: addresses.length, error: String(error) });
    return new Map();
  }
}

/**
 * Deposit addresses read this run that are not due and hold native coin worth sweeping (at least
 * settings.minimumNative), up to `room`. Only those
 * holding no USDT: the factory moves both, and USDT at an address that is not due is not
 * the ledger's yet (a transfer confirming) or is kept there on purpose (held, below the minimum),
 * so its native coin waits for the address's own sweep. A frozen one is left alone as any is.
 */
async function nativeOnly(deps: EvmSweepDeps, candidates: DueForwarder[], wasDue: Set<string>, nativeHeld: Map<string, bigint>, room: number): Promise<SweptForwarder[]> {
  const holding = candidates.filter(
    (forwarder) => !wasDue.has(forwarder.address) && (nativeHeld.get(forwarder.address) ?? 0n) >= deps.settings.minimumNative && deps.native!.isForwarderOf(forwarder.address, forwarder.depositId),
  );
  if (holding.length === 0) return [];
  const addresses = holding.map((forwarder) => forwarder.address);
  const [held, frozen] = await Promise.all([deps.usdtBalances(addresses), deps.frozenAmong ? deps.frozenAmong(addresses) : new Set<string>()]);
  return holding
    .filter((forwarder) => (held.get(forwarder.address) ?? 0n) === 0n && !frozen.has(forwarder.address))
    .slice(0, room)
    .map((forwarder) => ({ ...forwarder, amount: 0n, native: nativeHeld.get(forwarder.address)! }));
}

/** Signs the batch's sweep with the wallet's next nonce and stores it, taking the nonce (read
 * afresh from the table: the withdrawal sender moves it between the sweeper's runs), past any the
 * final block shows used outside Cambio (withNextNonce). */
async function signAndStore(deps: EvmSweepDeps, forwarders: SweptForwarder[], now: () => Date): Promise<EvmSweep | 'would-revert' | 'busy'> {
  const wallet = await deps.payouts.wallet();
  return withNextNonce(deps.store, wallet, undefined, await countAtFinal(deps.chain, wallet), async (slot) => {
    const signed = await deps.payouts.signedSweep({ nonce: slot.nonce, depositIds: forwarders.map((forwarder) => forwarder.depositId) });
    if (!signed) return 'would-revert';
    const at = now().toISOString();
    const sweep: EvmSweep = {
      id: `${deps.network}:${wallet.toLowerCase()}:${slot.nonce}`,
      network: deps.network,
      status: 'sending',
      wallet,
      forwarders,
      amount: forwarders.reduce((sum, forwarder) => sum + forwarder.amount, 0n),
      nativeAmount: forwarders.reduce((sum, forwarder) => sum + (forwarder.native ?? 0n), 0n),
      nonce: slot.nonce,
      signed: signed.raw,
      txHash: signed.txHash,
      filler: null,
      // Broadcast right after this write: stored as broadcast now, so a sweep costs no second write.
      broadcastAt: at,
      failureReason: null,
      createdAt: at,
      updatedAt: at,
    };
    const answer = await deps.store.storeSweep(sweep, slot);
    return answer === 'written' ? sweep : answer;
  });
}

/** Broadcasts the stored sweep, its newest version, signing it again with more gas or filling its
 * nonce if the node refuses it (broadcastOrFill), and records when the node first took a
 * replacement. */
async function broadcastSweep(deps: EvmSweepDeps, sweep: EvmSweep, now: () => Date): Promise<void> {
  const answer = await broadcastOrFill(deps.payouts, sweep, now, {
    log: deps.log ?? stderrLog,
    fields: { network: deps.network, sweepId: sweep.id },
    storeFiller: async (filler: NonceFiller) => {
      (deps.log ?? stderrLog).error('the node refuses the sweep for good; filling its nonce', { network: deps.network, sweepId: sweep.id, refusal: filler.refusal });
      const filling: EvmSweep = { ...sweep, filler, updatedAt: now().toISOString() };
      return (await deps.store.saveSweep(sweep, filling)) ? filling : null;
    },
    storeVersion: (next) => storedVersion(deps, sweep, next, now),
    broadcast: (again) => broadcastSweep(deps, again, now),
  });
  const taken = answer === 'sent' ? takenAt(sweep, now()) : null;
  if (taken) await deps.store.saveSweep(sweep, { ...sweep, ...taken, updatedAt: now().toISOString() });
}

/** The sweep's next version, at a higher fee, in place of the newest (replaceUnmined). */
const replaceSweep = (deps: EvmSweepDeps, sweep: EvmSweep, now: () => Date) =>
  replaceUnmined(sweep, {
    payouts: deps.payouts,
    log: deps.log ?? stderrLog,
    what: 'sweep',
    fields: { network: deps.network, sweepId: sweep.id },
    save: (replaced) => storedVersion(deps, sweep, replaced, now),
    broadcast: (replacement) => broadcastSweep(deps, replacement, now),
  });

/** The sweep with a new version of its transaction (or of its filler) in place of the newest, the
 * hashes before kept (withReplacement), as written; null when another run got there first. */
async function storedVersion(deps: EvmSweepDeps, sweep: EvmSweep, next: VersionFields, now: () => Date): Promise<EvmSweep | null> {
  const replacement: EvmSweep = { ...sweep, ...next, updatedAt: now().toISOString() };
  return (await deps.store.saveSweep(sweep, replacement)) ? replacement : null;
}

/**
 * What a landed sweep takes off each counted forwarder's counts: what the receipt shows it sent (its
 * whole balance when mined; what it held when planned where the receipt gives no transfers). A
 * payment that landed after the plan went too: it comes off the credit counted there as well, ahead
 * of its own credit, which then brings the counts back to what the address holds.
 */
function sentOffCounts(sweep: EvmSweep, receipt: TransactionReceipt | undefined, log: Log): { address: string; taken: CountsTaken }[] {
  return sweep.forwarders.flatMap((forwarder) => {
    if (!forwarder.takenOffCounts) return [];
    const transfers = receipt?.tokenTransfers?.filter((transfer) => transfer.from !== undefined && sameEvmAddress(transfer.from, forwarder.address));
    const sent = transfers ? transfers.reduce((sum, transfer) => sum + transfer.amount, 0n) : forwarder.amount;
    const extra = sent > forwarder.amount ? sent - forwarder.amount : 0n;
    // The window a whole-balance flush leaves: a payment that landed after the plan went unscreened.
    if (extra > 0n) log.warn('a payment that landed after the sweep was planned went with it, before it was screened', { network: sweep.network, sweepId: sweep.id, address: forwarder.address, usdt: String(extra) });
    return [{ address: forwarder.address, taken: { sweepable: sent, credited: forwarder.takenOffCounts.credited + extra } }];
  });
}

/** Why a sweep failed when a transaction Cambio did not sign took its nonce: it can never be mined. */
export const NONCE_USED_OUTSIDE = 'NONCE_USED_OUTSIDE';

/** Settles the open sweeps by final receipts and broadcasts again those the node does not show
 * mined; returns the ones still open. */
async function settleSweeps(deps: EvmSweepDeps, result: EvmSweepResult, now: () => Date): Promise<EvmSweep[]> {
  const open: EvmSweep[] = [];
  let final: ChainBlock | undefined;
  let usedAtFinal: number | undefined;
  // The record ends with the hash of the version that landed, whichever it is (nonceOutcome's).
  const settleAs = async (sweep: EvmSweep, settled: string, txHash = sweep.txHash, receipt?: TransactionReceipt) => {
    const done = settled === 'SUCCESS';
    // The hot wallet received what the forwarders sent less any fee the token's issuer took:
    // Cambio's cost, booked with the sweep. Both read from the receipt: each flush moves its
    // forwarder's whole balance when mined, not what it held when the sweep was planned (`amount`).
    const moved = done && receipt ? sweepMovement(receipt, sweep.wallet, { amount: sweep.amount, from: sweep.forwarders.map((forwarder) => forwarder.address) }, sameEvmAddress) : null;
    const after: EvmSweep = {
      ...sweep,
      txHash,
      status: done ? 'done' : 'failed',
      ...(moved && { moved: moved.sent }),
      failureReason: done ? null : settled,
      updatedAt: now().toISOString(),
    };
    const fee = moved === null ? null : tokenFeeEntry(deps.network, txHash, moved.sent - moved.received, now());
    // What each forwarder sent comes off its counts before the sweep is saved done (a crash between
    // settles it again, and takes nothing twice).
    if (done) await deps.store.takeOffCounts(sweep.id, sentOffCounts(sweep, receipt, deps.log ?? stderrLog));
    if (await deps.store.saveSweep(sweep, after, fee)) result[done ? 'done' : 'failed']++;
  };
  for (const sweep of await deps.store.openSweeps()) {
    final ??= await deps.chain.finalBlock();
    const outcome = await nonceOutcome(deps.chain, sweep, final);
    if (outcome.settled !== null) {
      await settleAs(sweep, outcome.settled, outcome.txHash, outcome.receipt);
      continue;
    }
    if (outcome.inBlock) {
      open.push(sweep);
      continue;
    }
    // No version of it mined, yet its nonce is used in a final block (the count is read after the
    // final block, and its receipts after that: a sweep mined by then was found above). A
    // transaction from the hot wallet that Cambio did not sign took it, so it can never be mined:
    // failed, its forwarders stay due and the next batch sweeps them on a nonce of its own.
    usedAtFinal ??= await deps.chain.transactionCountAt(await deps.payouts.wallet(), final.number);
    // The count alone is no proof (a lagging backend may lack the receipt of a sweep mined long ago):
    // the final chain must show another transaction at its nonce (nonceHolder).
    const holder = usedAtFinal > sweep.nonce && !sweep.filler ? await nonceHolder(deps.chain, await deps.payouts.wallet(), sweep, final, usedAtFinal).catch(() => 'unknown' as const) : 'unknown';
    if (holder === 'own') {
      open.push(sweep);
      continue;
    }
    if (holder === 'outside') {
      (deps.log ?? stderrLog).error('sweep nonce used outside Cambio (a transaction from the hot wallet that Cambio did not sign): failed, its forwarders are swept again', {
        network: deps.network,
        sweepId: sweep.id,
        nonce: sweep.nonce,
      });
      await settleAs(sweep, NONCE_USED_OUTSIDE);
      continue;
    }
    open.push(sweep);
    try {
      const due = dueForReplacement(sweep, now(), deps.replaceAfterMs ?? DEFAULT_REPLACE_AFTER_SECONDS * 1000);
      await replaceOrRebroadcast(due ? () => replaceSweep(deps, sweep, now) : null, () => broadcastSweep(deps, sweep, now), result);
    } catch (error) {
      (deps.log ?? stderrLog).error('sweep rebroadcast failed; will retry', { network: deps.network, sweepId: sweep.id, error: String(error) });
    }
  }
  return open;
}
