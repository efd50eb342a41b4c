import { auditEntry, type AuditAction, type AuditEntry } from '../companies/audit-log.ts';
import type { CompanyStore } from '../companies/company.ts';
import { actorOf, type Caller } from '../people/dashboard.ts';
import { ApiError, validationFailed } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { withdrawalAllowlistMail, type AllowlistChange, type Mailer } from '../mail/mail.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';
import { requirePermission } from '../people/team.ts';
import { anyNetworkAddressInWords, isAnyNetworkAddress } from '../networks/registry.ts';

/**
 * A company's withdrawal allowlist, Circle's "address book": while it is on, money leaves only for
 * addresses that a company's Owner or Admin added in the dashboard, each usable once the
 * stage's waiting period has passed. A leaked API secret then moves nothing to an attacker's
 * address: /v1 cannot add one, and an address added through a taken-over dashboard session waits
 * (24 h in production) while its Owners and Admins are mailed.
 *
 * The rule: what widens where money may go (adding an address, turning the allowlist off) waits the
 * delay; what narrows it (removing an address, turning the allowlist on) is immediate. It covers
 * withdrawals and the split address of a new deposit (a split forwards money too).
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
  address: string;
  label: string;
  /** Who added it: their email, or null for the command line. */
  addedBy: string | null;
  createdAt: string;
  /** Withdrawals to it are accepted from this time on. */
  activeFrom: string;
}

export const ALLOWLIST_OFF: WithdrawalAllowlist = { enabled: false, offFrom: null, addressCount: 0 };

/** Enough for any company's payout accounts; the cap keeps one page and one read. */
export const MAX_ALLOWED_ADDRESSES = 100;
export const MAX_LABEL_LENGTH = 64;

/** What /v1 reads before money leaves: the allowlist and the one address asked for. */
export interface AllowlistReader {
  allowlistFor(companyId: string, address: string): Promise<{ allowlist: WithdrawalAllowlist; entry: AllowedAddress | null }>;
}

export interface AllowlistStore extends AllowlistReader, CompanyStore {
  allowlistOf(companyId: string): Promise<{ allowlist: WithdrawalAllowlist; addresses: AllowedAddress[] }>;
  /** Adds the address with its audit entry, within MAX_ALLOWED_ADDRESSES: LIMIT_REACHED past it,
   * VALIDATION_FAILED if the address is on the list already. */
  addAddress(entry: AllowedAddress, audit: AuditEntry): Promise<void>;
  /** Removes the address with its audit entry; NOT_FOUND if it is not on the list. */
  removeAddress(companyId: string, address: string, audit: AuditEntry): Promise<void>;
  /** Writes the allowlist's switch (`enabled`, `offFrom`) with its audit entry. */
  setAllowlist(companyId: string, allowlist: Pick<WithdrawalAllowlist, 'enabled' | 'offFrom'>, audit: AuditEntry): Promise<void>;
}

/** Whether the allowlist holds at `now`: on, and any requested turn-off still ahead. */
export function allowlistHolds(allowlist: WithdrawalAllowlist, now: Date): boolean {
  return allowlist.enabled && !(allowlist.offFrom !== null && allowlist.offFrom <= now.toISOString());
}

/**
 * What the transaction that moves money checks of the allowlist, so no read is spent on it while
 * the allowlist is off, the common case: first that it does not hold (`holds: false`, a condition
 * on its item); only if that fails, the address is read and the transaction is made again with a
 * check that the address is on the list as read (`holds: true`), so one removed meanwhile stops it.
 */
export type AllowlistGuard = { holds: false; at: string } | { holds: true; entry: AllowedAddress };

/** A store's answer when the `holds: false` guard failed: the allowlist holds after all. */
export class AllowlistHolds extends Error {}

/**
 * Runs `write` (the transaction that sends money to `address`: a withdrawal, a deposit's split)
 * under the allowlist: at once while it is off; while it holds, only to an address on it and past
 * its waiting period, else 422 ADDRESS_NOT_ALLOWED (`field` names the request's field) and nothing
 * is written.
 */
export async function underAllowlist<T>(reader: AllowlistReader, companyId: string, address: string, field: string, now: Date, write: (guard: AllowlistGuard) => Promise<T>): Promise<T> {
  const off: AllowlistGuard = { holds: false, at: now.toISOString() };
  try {
    return await write(off);
  } catch (error) {
    if (!(error instanceof AllowlistHolds)) throw error;
  }
  const entry = await requireAllowedAddress(reader, companyId, address, field, now);
  // Null: turned off between the transaction and the read; its guard says so again.
  return write(entry ? { holds: true, entry } : off);
}

/**
 * What a job that forwards money on its own (a deposit's split) goes by: the guard to write the
 * payout under, as underAllowlist's, or null when the allowlist holds and the address is not on it,
 * or not yet usable. The job cannot refuse anyone, so the money stays with the company instead.
 */
export async function payoutGuard(reader: AllowlistReader, companyId: string, address: string, now: Date): Promise<AllowlistGuard | null> {
  const { allowlist, entry } = await reader.allowlistFor(companyId, address);
  if (!allowlistHolds(allowlist, now)) return { holds: false, at: now.toISOString() };
  return entry && entry.activeFrom <= now.toISOString() ? { holds: true, entry } : null;
}

/** The read behind a refusal: nothing while the allowlist is off; otherwise the address must be on
 * it and past its waiting period, or ADDRESS_NOT_ALLOWED. */
async function requireAllowedAddress(reader: AllowlistReader, companyId: string, address: string, field: string, now: Date): Promise<AllowedAddress | null> {
  const { allowlist, entry } = await reader.allowlistFor(companyId, address);
  if (!allowlistHolds(allowlist, now)) return null;
  if (!entry) {
    throw new ApiError('ADDRESS_NOT_ALLOWED', `${field} is not on the company's withdrawal allowlist`, { field, address });
  }
  if (entry.activeFrom > now.toISOString()) {
    throw new ApiError('ADDRESS_NOT_ALLOWED', `${field} is on the withdrawal allowlist but usable only from ${entry.activeFrom}`, { field, address, activeFrom: entry.activeFrom });
  }
  return entry;
}

/** What changes an allowlist needs: the store, the stage's waiting period, and the mail. */
export interface AllowlistDeps {
  store: AllowlistStore;
  /** WITHDRAWAL_ADDRESS_DELAY_HOURS, in milliseconds. */
  delayMs: number;
  /** Whom a widening change is mailed to: the company's Owners and Admins. */
  members: MemberLookup;
  mailer: Mailer | null;
  log: Log;
}

const audit = (caller: Caller, action: AuditAction, now: Date, target: string | null, details: Record<string, string> | null) =>
  auditEntry(caller.membership.companyId, action, actorOf(caller.membership), caller.origin, now, target, details);

const addressView = (entry: AllowedAddress, now: Date) => ({
  address: entry.address,
  label: entry.label,
  addedBy: entry.addedBy,
  createdAt: entry.createdAt,
  activeFrom: entry.activeFrom,
  active: entry.activeFrom <= now.toISOString(),
});

/** The Integrations page's `Withdrawal addresses`: the switch, the delay, and every address, newest first. */
export async function withdrawalAllowlist(deps: Pick<AllowlistDeps, 'store' | 'delayMs'>, caller: Caller, now = new Date()) {
  const { allowlist, addresses } = await deps.store.allowlistOf(caller.membership.companyId);
  const holds = allowlistHolds(allowlist, now);
  return {
    enabled: holds,
    turnsOffAt: holds ? allowlist.offFrom : null,
    delayHours: deps.delayMs / 3_600_000,
    addresses: addresses.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).map((entry) => addressView(entry, now)),
    limit: MAX_ALLOWED_ADDRESSES,
  };
}

export async function addAllowedAddress(deps: AllowlistDeps, caller: Caller, input: { address: string; label: string }, now = new Date()) {
  requirePermission(caller.membership, 'manageAddresses');
  const address = input.address.trim();
  const label = input.label.trim();
  const problems = [
    ...(isAnyNetworkAddress(address) ? [] : [{ path: 'address', message: `must be a ${anyNetworkAddressInWords()}` }]),
    ...(label.length >= 1 && label.length <= MAX_LABEL_LENGTH ? [] : [{ path: 'label', message: `must be 1-${MAX_LABEL_LENGTH} characters` }]),
  ];
  if (problems.length > 0) throw validationFailed(problems);
  const entry: AllowedAddress = {
    companyId: caller.membership.companyId,
    address,
    label,
    addedBy: caller.membership.email,
    createdAt: now.toISOString(),
    activeFrom: new Date(now.getTime() + deps.delayMs).toISOString(),
  };
  await deps.store.addAddress(entry, audit(caller, 'withdrawal_address.added', now, address, { label, activeFrom: entry.activeFrom }));
  await tellManagers(deps, caller, { kind: 'address-added', address, label, from: entry.activeFrom });
  return addressView(entry, now);
}

export async function removeAllowedAddress(deps: Pick<AllowlistDeps, 'store'>, caller: Caller, address: string, now = new Date()): Promise<void> {
  requirePermission(caller.membership, 'manageAddresses');
  await deps.store.removeAddress(caller.membership.companyId, address, audit(caller, 'withdrawal_address.removed', now, address, null));
}

/** On: at once. Off: after the delay (the allowlist holds until then); asking again while a
 * turn-off is pending keeps the earlier time. */
export async function switchAllowlist(deps: AllowlistDeps, caller: Caller, input: { enabled: boolean }, now = new Date()) {
  requirePermission(caller.membership, 'manageAddresses');
  const companyId = caller.membership.companyId;
  const { allowlist } = await deps.store.allowlistOf(companyId);
  const holds = allowlistHolds(allowlist, now);
  if (input.enabled) {
    if (!(holds && allowlist.offFrom === null)) {
      await deps.store.setAllowlist(companyId, { enabled: true, offFrom: null }, audit(caller, 'withdrawal_allowlist.enabled', now, null, null));
    }
  } else if (holds && allowlist.offFrom === null) {
    const offFrom = new Date(now.getTime() + deps.delayMs).toISOString();
    await deps.store.setAllowlist(companyId, { enabled: deps.delayMs > 0, offFrom: deps.delayMs > 0 ? offFrom : null }, audit(caller, 'withdrawal_allowlist.disabled', now, null, { offFrom }));
    await tellManagers(deps, caller, { kind: 'turning-off', from: offFrom });
  }
  return withdrawalAllowlist(deps, caller, now);
}

/** Owners and Admins hear of every widening, so one they did not make is caught within the delay.
 * A mail that fails is logged: the change stands. */
async function tellManagers(deps: AllowlistDeps, caller: Caller, change: AllowlistChange): Promise<void> {
  if (!deps.mailer) return;
  try {
    await mailMembersWho('manageAddresses', { companies: deps.store, members: deps.members, mailer: deps.mailer }, caller.membership.companyId, (to, companyName) =>
      withdrawalAllowlistMail({ to, companyName, by: caller.membership.email, change }),
    );
  } catch (error) {
    deps.log.warn('withdrawal allowlist change not mailed', { companyId: caller.membership.companyId, error: (error as Error).name ?? 'Error' });
  }
}
