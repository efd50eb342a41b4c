import type { ChainReader } from '../networks/chain.ts';
import type { NetworkName } from '../networks/names.ts';
import type { Deposit, HoldReason } from './deposits.ts';
import { inParallel } from '../shared/in-parallel.ts';
import { stderrLog, type Log } from '../shared/log.ts';
import type { AddressOwner, DepositAddressListing } from './deposit-address-filter.ts';
import type { DustRecorder } from './dust.ts';
import { payoutGuard, type AllowlistGuard, type AllowlistReader } from '../withdrawals/withdrawal-policy.ts';
import { transferId, type DepositChange, type TransferKey, type TransferRecord } from './deposit-transitions.ts';

/**
 * What the deposit jobs share (./deposit-scan.ts scanning the chain, ./reorganisations.ts undoing
 * what replaced blocks showed, ./deposit-confirmation.ts confirming, releasing and expiring): the
 * store and the chain they work on, the checks a final transfer passes before it is credited, and
 * how changes to deposits are written (batched, retried on conflicts). Every change itself is built
 * by ./deposit-transitions.ts.
 */

/** The allowlist reads are for a split's forwarding, which the withdrawal allowlist governs as it
 * does any payout; the listing of deposit addresses feeds the scanner's DepositAddressFilter. */
export interface DepositChainStore extends AllowlistReader, DepositAddressListing, Partial<DustRecorder> {
  getDeposit(companyId: string, depositId: string): Promise<Deposit | null>;
  /** Consistent reads of many deposits at once, by deposit id; missing ones are absent. */
  getDeposits(owners: AddressOwner[]): Promise<Map<string, Deposit>>;
  /** Splits changes (of different deposits) into groups that each fit one applyChanges call. */
  inWrites(changes: DepositChange[]): DepositChange[][];
  /** All the changes or none: 'applied', 'conflict' (someone changed a deposit: re-read and
   * retry), 'duplicate' (a transfer was recorded already) or 'allowlist' (a split's allowlist
   * guard no longer holds: build again, reading the allowlist). At most one change per deposit. */
  applyChanges(changes: DepositChange[]): Promise<'applied' | 'conflict' | 'duplicate' | 'allowlist'>;
  confirmingTransfers(): Promise<TransferRecord[]>;
  /** Transfers recorded final but held (HoldReason), on this store's network. */
  heldTransfers(): Promise<TransferRecord[]>;
  /** Which of these transfers are recorded already (and not reversed), as `txHash#eventIndex`. */
  recordedTransfers(transfers: TransferKey[]): Promise<Set<string>>;
  /** What each of these deposit addresses has had credited and not swept (its count), or null
   * where the address was never counted (the deposit's whole credit stands for it then). */
  creditedUnsweptAt(addresses: string[]): Promise<Map<string, bigint | null>>;
  /** Deposits on this store's network awaiting payment whose `expiresAt` is before `by`. */
  awaitingPaymentExpiredBy(by: Date): Promise<AddressOwner[]>;
}

/**
 * The checks a final transfer passes before it is credited (../shared/networks.md, "The token as it
 * is on mainnet"; HoldReason). Both answer "none" only when they know: a node's error throws, and
 * the transfer waits for the next run rather than being credited unchecked.
 */
export interface DepositHolds {
  /** Deposit addresses among these that the token's issuer has frozen now. */
  frozenAddresses(addresses: string[]): Promise<Set<string>>;
  /** Addresses among these on the sanctions screening list (of this network): a payer's, and a
   * split's destination before its share is forwarded. */
  sanctioned(addresses: string[]): Promise<Set<string>>;
  /** USDT each of these deposit addresses holds on chain now, in minor units: what an unfreeze
   * finds there (stillAtAddress). */
  usdtAt(addresses: string[]): Promise<Map<string, bigint>>;
}

/** Every payer of a transfer's transaction that screening judges: its `from` and any other whose
 * USDT it carried (Solana): a sanctioned one's money is in it, whoever else paid beside. */
export const payersOf = (transfer: { from?: string; otherPayers?: string[] }): string[] => [...(transfer.from ? [transfer.from] : []), ...(transfer.otherPayers ?? [])];

/** Why each of these final transfers (to `to`, paid by `from`) is held, by transferId; absent when
 * it is credited. One read of each kind for them all. */
export async function holdsFor(holds: DepositHolds | undefined, transfers: (TransferKey & { to: string; from?: string; otherPayers?: string[] })[]): Promise<Map<string, HoldReason>> {
  const reasons = new Map<string, HoldReason>();
  if (!holds || transfers.length === 0) return reasons;
  const senders = transfers.flatMap(payersOf);
  const [frozen, sanctioned] = await Promise.all([
    holds.frozenAddresses([...new Set(transfers.map((transfer) => transfer.to))]),
    senders.length ? holds.sanctioned([...new Set(senders)]) : Promise.resolve(new Set<string>()),
  ]);
  for (const transfer of transfers) {
    // A sanctioned payer is the stronger reason: unfreezing the address must not release it. The
    // freeze is not recorded beside it: a person's release of the sanction reads it again then
    // (releaseHeldTransfer), and keeps the money held for it while it lasts.
    if (payersOf(transfer).some((payer) => sanctioned.has(payer))) reasons.set(transferId(transfer), 'sender_sanctioned');
    else if (frozen.has(transfer.to)) reasons.set(transferId(transfer), 'address_frozen');
  }
  return reasons;
}

export interface DepositJobDeps {
  /** The network whose chain this is: a transfer to the address of a deposit on another network
   * is not that deposit's payment. */
  network: NetworkName;
  chain: ChainReader;
  store: DepositChainStore;
  /** The official USDT contract: transfers of any other token are ignored, whatever its symbol. */
  usdtContract: string;
  /** What keeps a final transfer from being credited; absent, nothing is held. */
  holds?: DepositHolds;
  now?: () => Date;
  log?: Log;
}

/** Deposits written one by one at once, when a batched write could not take them. */
export const DEPOSITS_IN_FLIGHT = 16;
/** Receipts asked of the chain at once: one HTTP request each on TronGrid. */
export const RECEIPTS_IN_FLIGHT = 8;
const CONFLICT_RETRIES = 5;

/** One change to one deposit, built on the deposit as it is when written. */
export interface DepositStep<T> {
  owner: AddressOwner;
  /** `readAllowlist`: a split's forwarding reads the allowlist, after its optimistic guard failed. */
  build: (deposit: Deposit, readAllowlist: boolean) => DepositChange | null | Promise<DepositChange | null>;
  /** What applying it counts as, for the job's result. */
  outcome: T;
}

/**
 * Applies steps, a deposit's steps in the order given. Each deposit's first step goes into
 * batched writes: many deposits in one transaction, with one balance update per company, so a
 * company paid by many customers in the same blocks neither races itself on its balance nor pays
 * a round trip per transfer. A deposit's further steps, and the steps of a write refused because
 * a deposit moved in between, are then applied one by one on fresh reads (deposits side by side,
 * one deposit's steps in order, each on the version the last one left). Returns the outcomes of
 * the steps applied.
 */
export async function applySteps<T>(store: DepositChainStore, steps: DepositStep<T>[]): Promise<T[]> {
  const byDeposit = new Map<string, DepositStep<T>[]>();
  for (const step of steps) {
    const group = byDeposit.get(step.owner.depositId);
    if (group) group.push(step);
    else byDeposit.set(step.owner.depositId, [step]);
  }
  const deposits = await store.getDeposits([...byDeposit.values()].map((group) => group[0]!.owner));
  const firsts = new Map<DepositChange, { depositId: string; step: DepositStep<T> }>();
  const rest = new Map<string, DepositStep<T>[]>();
  for (const [depositId, [first, ...others]] of byDeposit) {
    const deposit = deposits.get(depositId);
    const change = deposit && first ? await first.build(deposit, false) : null;
    if (change) firsts.set(change, { depositId, step: first! });
    // A first step with nothing to change on the deposit just read (consistently) is done; re-reading
    // it one by one would cost a GetItem per waiting transfer per run. A missing deposit goes on to
    // withDeposit, which reports it.
    rest.set(depositId, deposit ? others : [first!, ...others]);
  }
  const applied: T[] = [];
  for (const write of store.inWrites([...firsts.keys()])) {
    if ((await store.applyChanges(write)) === 'applied') {
      for (const change of write) applied.push(firsts.get(change)!.step.outcome);
      continue;
    }
    for (const change of write) rest.set(firsts.get(change)!.depositId, byDeposit.get(firsts.get(change)!.depositId)!);
  }
  await inParallel([...rest.values()].filter((group) => group.length > 0), DEPOSITS_IN_FLIGHT, async (group) => {
    for (const step of group) if ((await withDeposit(store, step.owner, step.build)) === 'applied') applied.push(step.outcome);
  });
  return applied;
}

/** The screening a split's destination passes before its share is forwarded: the sanctions list alone. */
export type SplitScreening = { holds?: Pick<DepositHolds, 'sanctioned'> };

/**
 * A split's forwarding goes by the withdrawal allowlist as it stands when the transfer is
 * confirmed, not when the deposit was made: an address taken off the list since receives nothing
 * more, and its share stays in the company's available balance. Null for a deposit without a split.
 * As for a withdrawal, the first try reads nothing: its transaction checks that the list is off,
 * and only when it is not (`readAllowlist`) is the address read.
 */
export async function splitGuard(deps: Pick<DepositJobDeps, 'store' | 'log'> & SplitScreening, deposit: Deposit, now: Date, readAllowlist: boolean): Promise<AllowlistGuard | null> {
  if (!deposit.split) return null;
  // Listed since the deposit was made: nothing is sent there; the share is credited with the rest.
  if (deps.holds && (await deps.holds.sanctioned([deposit.split.address])).has(deposit.split.address)) {
    (deps.log ?? stderrLog).error('split share kept: its address is on the sanctions screening list now', { companyId: deposit.companyId, depositId: deposit.id, address: deposit.split.address });
    return null;
  }
  if (!readAllowlist) return { holds: false, at: now.toISOString() };
  const guard = await payoutGuard(deps.store, deposit.companyId, deposit.network, deposit.split.address, now);
  if (!guard) {
    (deps.log ?? stderrLog).warn('split share kept: its address is not on the withdrawal allowlist now', {
      companyId: deposit.companyId,
      depositId: deposit.id,
      address: deposit.split.address,
    });
  }
  return guard;
}

/** Reads the deposit, builds the change and writes it; on a version conflict, reads again. */
export async function withDeposit(
  store: DepositChainStore,
  owner: AddressOwner,
  build: DepositStep<unknown>['build'],
): Promise<'applied' | 'duplicate' | 'unchanged'> {
  let readAllowlist = false;
  for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
    const deposit = await store.getDeposit(owner.companyId, owner.depositId);
    if (!deposit) throw new Error(`Deposit ${owner.depositId} of ${owner.companyId} is missing`);
    const change = await build(deposit, readAllowlist);
    if (!change) return 'unchanged';
    const outcome = await store.applyChanges([change]);
    if (outcome === 'allowlist') readAllowlist = true;
    else if (outcome !== 'conflict') return outcome;
  }
  throw new Error(`Deposit ${owner.depositId} kept changing under the chain job; will retry next run`);
}
