import { stderrLog, type Log } from '../shared/log.ts';
import { GONE_AT_UNFREEZE } from './deposit-transitions.ts';

/**
 * Deposit addresses the token's issuer has frozen (../shared/networks.md, "Sweeps never stall on
 * one address"). A frozen address cannot send: swept with others in one EVM batch it reverts the
 * whole batch, and on TRON its fee top-up burns for nothing. So the sweeper sets each aside as soon
 * as it finds one among the due addresses, before building anything, and the others are swept as
 * before; an address set aside goes back to the due list once the issuer unfreezes it. The list of
 * those set aside is what `DepositAddressesFrozen<Network>` counts and reconcile reads (their USDT is
 * still Cambio's to account for). Family-neutral: each network's sweeps call it the same way.
 */
export interface FrozenAddressList {
  /** Moves a due address, or one left below the sweep minimum, out of the sweeper's way into the
   * set-aside list, its credit still there taken back (deposit-transitions.ts freezeCredit): at most
   * `usdtThere`, what the address holds on chain now (a sweep may have emptied it already). */
  setAside(address: string, usdtThere: bigint): Promise<void>;
  /** Up to `limit` addresses left below the sweep minimum, each run the next ones (from the first
   * again after the last), so every one is looked at in turn. */
  belowMinimumPage(limit: number): Promise<string[]>;
  /** Those of `addresses` with a payment held because the issuer froze the address (the poller's to
   * release once it is unfrozen). */
  heldForTheirFreeze(addresses: string[]): Promise<Set<string>>;
  /** Every address set aside on this network. */
  setAsideAddresses(): Promise<string[]>;
  /** Back to the due list, its credit given back: the sweeper takes it on its next run. It stays set
   * aside, its credit held, while a payment held there for the freeze is the poller's to release
   * ('waiting'), and where its deposit holds more there than `usdtThere`, what the address has on
   * chain now ('gone': deposit-transitions.ts stillAtAddress). */
  returnToDue(address: string, usdtThere: bigint): Promise<Unfrozen>;
  /** The addresses of this network's deposits whose credit a freeze took back (deposit-transitions.ts
   * freezeCredit), read from the deposits, wherever their address is listed now: a held payment
   * released there meanwhile moves the address off the set-aside list. */
  frozenCreditAddresses(): Promise<string[]>;
  /** The credit a freeze took back at the address, given back (unfreezeCredit), as returnToDue
   * gives it back (or not). */
  returnFrozenCredit(address: string, usdtThere: bigint): Promise<Unfrozen>;
}

/** What came of an unfrozen address: back to the sweeper, waiting for the poller, or its USDT gone. */
export type Unfrozen = 'returned' | 'waiting' | 'gone';

/** Reads the issuer's freeze list (TokenControls.frozenAmong on the network's USDT). */
export type FrozenAmong = (addresses: string[]) => Promise<Set<string>>;

/** Reads what USDT each address holds on chain, in minor units. */
export type UsdtAt = (addresses: string[]) => Promise<Map<string, bigint>>;

/** UsdtAt from a reader of one address at a time (TRON's), each read side by side. */
export const usdtAtEach =
  (usdtOf: (address: string) => Promise<bigint>): UsdtAt =>
  async (addresses) =>
    new Map(await Promise.all(addresses.map(async (address) => [address, await usdtOf(address)] as const)));

/** Those of `addresses` the issuer has frozen, each set aside with its credit still there taken
 * back (at most what `usdtAt` reads there), and those unfrozen whose payment held for the freeze the
 * poller has still to release (left due, swept once it is: swept first, its USDT would be gone when
 * the poller looks for it); the caller sweeps the rest. */
export async function setAsideFrozen(list: FrozenAddressList, frozenAmong: FrozenAmong, addresses: string[], usdtAt: UsdtAt): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const frozen = await frozenAmong(addresses);
  if (frozen.size > 0) {
    const held = await usdtAt([...frozen]);
    for (const address of frozen) await list.setAside(address, held.get(address) ?? 0n);
  }
  const waiting = await list.heldForTheirFreeze(addresses.filter((address) => !frozen.has(address)));
  return new Set([...frozen, ...waiting]);
}

/** Every set-aside address the issuer no longer freezes goes back to the due list, its credit given
 * back; so does the credit of any other deposit a freeze took back, once its address is unfrozen.
 * An unfrozen address that no longer holds what its deposit held there (the issuer erased it while
 * frozen: deposit-transitions.ts stillAtAddress) gives nothing back: it stays set aside, counted
 * with the frozen ones for the alarm, and an error says so each run. Answers how many are still
 * frozen (the alarm's figure) and how many went back. */
export async function returnUnfrozen(list: FrozenAddressList, frozenAmong: FrozenAmong, usdtAt: UsdtAt, log: Log = stderrLog): Promise<{ stillFrozen: number; returned: number }> {
  const setAside = await list.setAsideAddresses();
  const listed = new Set(setAside);
  const elsewhere = (await list.frozenCreditAddresses()).filter((address) => !listed.has(address));
  if (setAside.length === 0 && elsewhere.length === 0) return { stillFrozen: 0, returned: 0 };
  const frozen = await frozenAmong([...setAside, ...elsewhere]);
  const unfrozen = setAside.filter((address) => !frozen.has(address));
  const unfrozenElsewhere = elsewhere.filter((address) => !frozen.has(address));
  const there = unfrozen.length + unfrozenElsewhere.length > 0 ? await usdtAt([...unfrozen, ...unfrozenElsewhere]) : new Map<string, bigint>();
  const gone: string[] = [];
  let returned = 0;
  let heldElsewhere = 0;
  for (const address of unfrozen) {
    const outcome = await list.returnToDue(address, there.get(address) ?? 0n);
    if (outcome === 'returned') returned++;
    if (outcome === 'gone') gone.push(address);
  }
  for (const address of unfrozenElsewhere) {
    const outcome = await list.returnFrozenCredit(address, there.get(address) ?? 0n);
    if (outcome !== 'returned') heldElsewhere++;
    if (outcome === 'gone') gone.push(address);
  }
  if (gone.length > 0) log.error(GONE_AT_UNFREEZE, { addresses: gone });
  // A frozen one off the list (a sanctioned payer's money kept there too) still has its credit held: counted.
  const frozenElsewhere = elsewhere.length - unfrozenElsewhere.length;
  return { stillFrozen: setAside.length - returned + frozenElsewhere + heldElsewhere, returned };
}

/**
 * Addresses below the sweep minimum looked at a run. No sweep is due at them, so the sweeper's
 * look at the due list never finds their freeze; this round does, a page a run (one read of the
 * issuer's list for each: 25 a minute, some 36,000 a day on TRON's TronGrid at the most), and sets
 * each frozen one aside with its credit taken back, as a due one is.
 */
export const BELOW_MINIMUM_REVIEWED_PER_RUN = 25;

/** What the sweeper does first each run: returnUnfrozen, then the next page of below-minimum
 * addresses checked for a freeze (BELOW_MINIMUM_REVIEWED_PER_RUN). `stillFrozen` counts both, for
 * the alarm. */
export async function reviewFrozenAddresses(list: FrozenAddressList, frozenAmong: FrozenAmong, usdtAt: UsdtAt): Promise<{ stillFrozen: number; returned: number; setAside: number }> {
  const { stillFrozen, returned } = await returnUnfrozen(list, frozenAmong, usdtAt);
  const frozen = await setAsideFrozen(list, frozenAmong, await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN), usdtAt);
  return { stillFrozen: stillFrozen + frozen.size, returned, setAside: frozen.size };
}
