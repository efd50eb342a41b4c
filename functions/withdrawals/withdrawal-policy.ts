import type { AuditEntry } from '../companies/audit-log.ts';
import type { NetworkName } from '../networks/names.ts';
import { canonicalOn, networksOf } from '../networks/registry.ts';
import { refuseSanctioned } from '../screening/screening.ts';
import { refuseCambioDestination, type CambioAddresses, type StageContracts } from './refused-destinations.ts';
import type { DestinationChecks } from '../networks/destination-registry.ts';
import type { ScreeningList } from '../screening/screening-list.ts';
import { ApiError } from '../shared/errors.ts';
import { formatAmount } from '../shared/money.ts';

/**
 * What lets money leave a company, in one place: the destinations Cambio refuses (its own addresses,
 * token contracts, unspendable ones: refused-destinations.ts), the sanctions screening list (where it
 * may never go, functions/screening/), the withdrawal allowlist (where it may go) and the daily
 * withdrawal limit (how much a UTC day), for withdrawals and for deposits' splits.
 *
 * In that order, before anything is written: a refused destination is 422 ADDRESS_NOT_ALLOWED with
 * its `details.reason` (`cambio_address`, `token_contract`, `unspendable`), then an address on the
 * screening list is refused the same way (`reason: "sanctioned"`), whatever the company's allowlist says.
 *
 * The allowlist is Circle's "address book": while it is on, money leaves only for addresses that a
 * company's Owner or Admin added in the dashboard, each usable once the stage's waiting period has
 * passed. A leaked API secret then moves nothing to an attacker's address: /v1 cannot add one, and
 * an address added through a taken-over dashboard session waits (24 h in production) while its
 * Owners and Admins are mailed. It covers withdrawals and a deposit's split (a split forwards money too).
 *
 * The daily limit is Circle's too: the USDT a company's withdrawals (by API key or from the
 * dashboard) may take in a UTC day, so a leaked secret takes no more than a day's limit before
 * someone notices. What counts is each accepted withdrawal's amount (not its fee) until it fails on
 * chain, when it gives the amount back to the day that counted it (withdrawal-sending.ts, fail);
 * deposit split forwards do not count. Only withdrawals made while a limit is in force are counted
 * (a company without one pays nothing for it), so a limit set during a day starts that day from zero.
 *
 * For both, what widens where or how much money may go waits the delay; what narrows it is
 * immediate. Both are checked in the transaction that moves the money, so a change made meanwhile
 * stops it: this module decides a guard, the store puts it in the transaction as conditions and
 * answers which one it found false, and this module reads again and decides once more.
 */

export interface WithdrawalAllowlist {
  /** Turned on, and not yet past a requested turn-off. */
  enabled: boolean;
  /** When a requested turn-off takes effect (the allowlist holds until then); null if none. */
  offFrom: string | null;
  /** Addresses on the list now, within the cap. */
  addressCount: number;
}

export interface AllowedAddress {
  companyId: string;
  /** The network the address is allowed on, or null for an entry added before entries named one:
   * it allows the one network whose form its address has (a `T…` address: TRON), and none when
   * several share that form (an EVM address: it is added again per network). See `allowsOn`. */
  network: NetworkName | null;
  /** In its network's canonical form (EIP-55, base58check), so that letter cases are one entry; an
   * entry without a network keeps the form it was added in. */
  address: string;
  label: string;
  /** Who added it: their email, or null for the command line. */
  addedBy: string | null;
  createdAt: string;
  /** Withdrawals to it are accepted from this time on. */
  activeFrom: string;
}

export const ALLOWLIST_OFF: WithdrawalAllowlist = { enabled: false, offFrom: null, addressCount: 0 };

/** Whether the allowlist holds at `now`: on, and any requested turn-off still ahead. */
export function allowlistHolds(allowlist: WithdrawalAllowlist, now: Date): boolean {
  return allowlist.enabled && !(allowlist.offFrom !== null && allowlist.offFrom <= now.toISOString());
}

export interface WithdrawalLimit {
  /** USDT minor units a UTC day; null for no limit. */
  dailyLimit: bigint | null;
  /** A raise or a removal waiting for its time: the limit from `from` on (null: none). */
  pending: { dailyLimit: bigint | null; from: string } | null;
  /** Changed on every write, so a transaction can check the limit it decided on is still the one. */
  version: number;
}

export const NO_LIMIT: WithdrawalLimit = { dailyLimit: null, pending: null, version: 0 };

/** The limit in force at `now`. */
export function limitAt(limit: WithdrawalLimit, now: Date): bigint | null {
  return limit.pending && limit.pending.from <= now.toISOString() ? limit.pending.dailyLimit : limit.dailyLimit;
}

export const limitDay = (now: Date): string => now.toISOString().slice(0, 10);

/** The network an entry allows (AllowedAddress.network): its own; for one added without a network,
 * the only network whose address form it has, or none. */
export function allowsOn(entry: Pick<AllowedAddress, 'network' | 'address'>): NetworkName | null {
  if (entry.network !== null) return entry.network;
  const networks = networksOf(entry.address);
  return networks.length === 1 ? networks[0]! : null;
}

/** The form an entry's address is kept in on `network` (its canonical one: EIP-55, base58check). */
const entryAddress = (network: NetworkName, address: string): string => canonicalOn(network, address) ?? address;

/** What is read before money leaves for `address` (in the network's canonical form) on `network`:
 * the allowlist and that address's entry on the network, consistently. */
export interface AllowlistReader {
  allowlistFor(companyId: string, network: NetworkName, address: string): Promise<{ allowlist: WithdrawalAllowlist; entry: AllowedAddress | null }>;
}

export interface LimitReader {
  /** The limit and what was sent on `day`, read consistently: in total, and by the parts the store
   * keeps the day's total in (`sentByPart`, opaque here: the store places a withdrawal by them). */
  limitFor(companyId: string, day: string): Promise<{ limit: WithdrawalLimit; sent: bigint; sentByPart: readonly bigint[] }>;
}

/**
 * What the transaction that moves money checks of the allowlist, so no read is spent on it while
 * the allowlist is off, the common case: first that it does not hold (`holds: false`, a condition
 * on its item); only if that fails, the address is read and the transaction is made again with a
 * check that the address is on the list as read (`holds: true`), so one removed meanwhile stops it.
 */
export type AllowlistGuard = { holds: false; at: string } | { holds: true; entry: AllowedAddress };

/**
 * What a withdrawal's transaction checks of the limit, likewise: first that no limit is in force (a
 * condition on the limit's item, no read); if that fails, the limit and the day's total are read and
 * the transaction adds the amount to the day's total only while it stays within the limit as read
 * (`dailyLimit`, the store holding each part of the total to its share of it), checking that limit
 * is still the one (`version`).
 */
export type LimitGuard =
  | { limited: false; at: string }
  | { limited: true; day: string; amount: bigint; version: number; dailyLimit: bigint; sentByPart: readonly bigint[] };

export interface WithdrawalGuards {
  allowlist: AllowlistGuard;
  limit: LimitGuard;
}

/**
 * A store's answer to a transaction written under the guards: 'written', or which guard's
 * condition it found false (the first, in the transaction's order: the allowlist's, the limit's
 * item, the day's total), with nothing written. What that means is decided here.
 */
export type GuardedWrite = 'written' | 'allowlist' | 'limit' | 'day-total';

/** A store's answer to a limit written over the version read: 'changed' when it is no longer that one. */
export type LimitWrite = 'written' | 'changed';

/** Reads of the limit a withdrawal (or a change of the limit) makes before it gives up on a limit
 * that keeps changing under it. */
const LIMIT_READS = 3;

/** Reads of the day's total a withdrawal makes when other withdrawals of the day took the part of
 * it the withdrawal was placed on first, while the day as a whole still had room. */
const DAY_TOTAL_READS = 10;

/** The guards kept failing after the reads they allow: the allowlist or the limit changed again
 * between each read and its transaction. Not the caller's doing: a 500. */
class PolicyKeptChanging extends Error {}

/**
 * Runs `write` (a withdrawal's transaction) to an address Cambio does not refuse and off the
 * screening list, under the allowlist and within the company's daily limit, returning the guards it
 * was written under. Refused with 422 ADDRESS_NOT_ALLOWED (`field` names the request's field;
 * `reason` for a refused destination or a listed address) or 422 LIMIT_REACHED (details:
 * dailyLimit, sentToday, remaining), and nothing written.
 */
export async function underWithdrawalPolicy(
  reader: AllowlistReader & LimitReader & ScreeningList & CambioAddresses,
  stage: { contracts: StageContracts; destinations?: DestinationChecks },
  companyId: string,
  payout: { network: NetworkName; address: string; field: string; amount: bigint },
  now: Date,
  write: (guards: WithdrawalGuards) => Promise<GuardedWrite>,
): Promise<WithdrawalGuards> {
  const reaching = await refuseCambioDestination({ addresses: reader, ...stage }, payout);
  await refuseSanctioned(reader, payout.network, payout.address, payout.field, reaching);
  const at = now.toISOString();
  let guards: WithdrawalGuards = { allowlist: { holds: false, at }, limit: { limited: false, at } };
  let allowlistRead = false;
  let limitReads = 0;
  let dayTotalReads = 0;
  for (;;) {
    const failed = await write(guards);
    if (failed === 'written') return guards;
    const { allowlist, limit } = guards;
    if (failed === 'allowlist') {
      if (allowlist.holds) throw addressRemoved(allowlist.entry.address);
      if (allowlistRead) throw new PolicyKeptChanging('The withdrawal allowlist changed again after it was read');
      allowlistRead = true;
      guards = { ...guards, allowlist: await allowlistGuard(reader, companyId, payout, now) };
    } else if (failed === 'day-total' && limit.limited) {
      // Another withdrawal of the day came first. Past the limit now: say what is left. Otherwise it
      // took the part of the day's total this one was placed on: placed again from a fresh read.
      if (dayTotalReads >= DAY_TOTAL_READS) throw new PolicyKeptChanging("The day's withdrawals kept changing after they were read");
      dayTotalReads++;
      guards = { ...guards, limit: await limitGuard(reader, companyId, payout.amount, now) };
    } else {
      // A limit where none was expected, or another one than was read: read it (again).
      if (limitReads >= (limit.limited ? LIMIT_READS : 1)) throw new PolicyKeptChanging('The daily withdrawal limit changed again after it was read');
      limitReads++;
      guards = { ...guards, limit: await limitGuard(reader, companyId, payout.amount, now) };
    }
  }
}

/**
 * Runs `write` (the transaction that creates a deposit with a split) under the allowlist: at once
 * while it is off; while it holds, only to an address on it for the deposit's network and past its
 * waiting period, else 422 ADDRESS_NOT_ALLOWED on `split.address` and nothing is written. A split's
 * forwards are not counted toward the daily limit. Its address is checked against the destinations
 * Cambio refuses and screened before the deposit takes an address index (deposits.ts createDeposit).
 */
export async function underSplitPolicy(
  reader: AllowlistReader,
  companyId: string,
  split: { network: NetworkName; address: string },
  now: Date,
  write: (guard: AllowlistGuard) => Promise<'written' | 'allowlist'>,
): Promise<void> {
  const off: AllowlistGuard = { holds: false, at: now.toISOString() };
  if ((await write(off)) === 'written') return;
  const guard = await allowlistGuard(reader, companyId, { ...split, field: 'split.address' }, now);
  if ((await write(guard)) === 'written') return;
  if (guard.holds) throw addressRemoved(guard.entry.address);
  throw new PolicyKeptChanging('The withdrawal allowlist changed again after it was read');
}

/**
 * What a job that forwards money on its own (a deposit's split) goes by: the guard to write the
 * payout under, or null when the allowlist holds and the address is not on it, or not yet usable.
 * The job cannot refuse anyone, so the money stays with the company instead.
 */
export async function payoutGuard(reader: AllowlistReader, companyId: string, network: NetworkName, address: string, now: Date): Promise<AllowlistGuard | null> {
  const { allowlist, entry } = await reader.allowlistFor(companyId, network, entryAddress(network, address));
  if (!allowlistHolds(allowlist, now)) return { holds: false, at: now.toISOString() };
  return entry && entry.activeFrom <= now.toISOString() ? { holds: true, entry } : null;
}

/** The allowlist as read: off (turned off since the transaction found it on: its guard says so
 * again), or the address on it for the network and past its waiting period, else ADDRESS_NOT_ALLOWED. */
async function allowlistGuard(reader: AllowlistReader, companyId: string, { network, address, field }: { network: NetworkName; address: string; field: string }, now: Date): Promise<AllowlistGuard> {
  const { allowlist, entry } = await reader.allowlistFor(companyId, network, entryAddress(network, address));
  if (!allowlistHolds(allowlist, now)) return { holds: false, at: now.toISOString() };
  if (!entry) {
    throw new ApiError('ADDRESS_NOT_ALLOWED', `${field} is not on the company's withdrawal allowlist for ${network}`, { field, address });
  }
  if (entry.activeFrom > now.toISOString()) {
    throw new ApiError('ADDRESS_NOT_ALLOWED', `${field} is on the withdrawal allowlist but usable only from ${entry.activeFrom}`, { field, address, activeFrom: entry.activeFrom });
  }
  return { holds: true, entry };
}

const addressRemoved = (address: string) => new ApiError('ADDRESS_NOT_ALLOWED', 'The address was removed from the withdrawal allowlist', { address });

/** The limit and the day's total as read: none in force, or room for `amount` within it, else LIMIT_REACHED. */
async function limitGuard(reader: LimitReader, companyId: string, amount: bigint, now: Date): Promise<LimitGuard> {
  const day = limitDay(now);
  const { limit, sent, sentByPart } = await reader.limitFor(companyId, day);
  const dailyLimit = limitAt(limit, now);
  if (dailyLimit === null) return { limited: false, at: now.toISOString() };
  if (sent + amount > dailyLimit) throw limitReached(dailyLimit, sent);
  return { limited: true, day, amount, version: limit.version, dailyLimit, sentByPart };
}

function limitReached(dailyLimit: bigint, sent: bigint): ApiError {
  const remaining = dailyLimit > sent ? dailyLimit - sent : 0n;
  return new ApiError('LIMIT_REACHED', `This withdrawal would take the day's withdrawals past the company's daily limit of ${formatAmount(dailyLimit, 'USDT')} USDT`, {
    dailyLimit: formatAmount(dailyLimit, 'USDT'),
    sentToday: formatAmount(sent, 'USDT'),
    remaining: formatAmount(remaining, 'USDT'),
  });
}

export interface LimitWriter extends LimitReader {
  /** Writes the limit (its version one more than `expectedVersion`) with its audit entry, or
   * answers 'changed' and writes nothing when the stored version is no longer `expectedVersion`. */
  setLimit(companyId: string, limit: Omit<WithdrawalLimit, 'version'>, expectedVersion: number, audit: AuditEntry): Promise<LimitWrite>;
}

/** A change of the limit as written: `dailyLimit` ('none' or USDT) in force from `from`. */
export interface LimitChange {
  /** Lowered, or set where there was none: at once. Otherwise it waited the delay. */
  narrows: boolean;
  details: { dailyLimit: string; from: string };
}

/**
 * Sets the daily limit to `wanted` (null: none): a lower limit, or one where there was none, at
 * once; a higher one, or none, after `delayMs`. Decided on the limit as read and written only if it
 * is still that one; a change in between is read again. `audit` makes the change's entry.
 */
export async function changeLimit(
  store: LimitWriter,
  companyId: string,
  wanted: bigint | null,
  delayMs: number,
  now: Date,
  audit: (details: LimitChange['details']) => AuditEntry,
): Promise<LimitChange> {
  for (let attempt = 1; ; attempt++) {
    const { limit } = await store.limitFor(companyId, limitDay(now));
    const current = limitAt(limit, now);
    const narrows = wanted !== null && (current === null || wanted <= current);
    const from = new Date(now.getTime() + delayMs).toISOString();
    const waits = !narrows && delayMs > 0;
    const next: Omit<WithdrawalLimit, 'version'> = waits ? { dailyLimit: current, pending: { dailyLimit: wanted, from } } : { dailyLimit: wanted, pending: null };
    const details = { dailyLimit: wanted === null ? 'none' : formatAmount(wanted, 'USDT'), from: waits ? from : now.toISOString() };
    if ((await store.setLimit(companyId, next, limit.version, audit(details))) === 'written') return { narrows, details };
    if (attempt >= LIMIT_READS) throw new PolicyKeptChanging('The daily withdrawal limit changed again after it was read');
  }
}
