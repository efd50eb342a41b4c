import { auditEntry, type AuditAction, type AuditEntry } from '../companies/audit-log.ts';
import type { CompanyStore } from '../companies/company.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { withdrawalAllowlistMail, type AllowlistChange, type Mailer } from '../mail/mail.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';
import { requirePermission } from '../people/team.ts';
import { addressOf, canonicalOn, networkNamed } from '../networks/registry.ts';
import type { NetworkName } from '../networks/names.ts';
import { allowlistHolds, allowsOn, type AllowedAddress, type AllowlistReader, type WithdrawalAllowlist } from './withdrawal-policy.ts';
import { refuseSanctioned } from '../screening/screening.ts';
import type { ScreeningList } from '../screening/screening-list.ts';
import { refuseCambioDestination, type CambioAddresses, type StageContracts } from './refused-destinations.ts';
import type { DestinationChecks } from '../networks/destination-registry.ts';

/**
 * The Integrations page's `Withdrawal addresses`: the allowlist withdrawal-policy.ts enforces. What
 * widens where money may go (adding an address, turning the allowlist off) waits the delay, mailed to
 * Owners and Admins; what narrows it (removing an address, turning the allowlist on) is immediate.
 * An entry is an address on one network, `{network, address, label}`, the address checked for that
 * network and kept in its canonical form (EIP-55, base58check), so its letter cases are one entry and
 * an entry on Ethereum allows nothing on Polygon. A destination Cambio refuses
 * (refused-destinations.ts) or an address on the sanctions screening list (functions/screening/) is
 * never added, in that order.
 */

/** Enough for any company's payout accounts; the cap keeps one page and one read. */
export const MAX_ALLOWED_ADDRESSES = 100;
export const MAX_LABEL_LENGTH = 64;

export interface AllowlistStore extends AllowlistReader, CompanyStore, ScreeningList, CambioAddresses {
  allowlistOf(companyId: string): Promise<{ allowlist: WithdrawalAllowlist; addresses: AllowedAddress[] }>;
  /** Adds the address with its audit entry, within MAX_ALLOWED_ADDRESSES; 'full' past it, 'listed'
   * if the address is on the list already, and nothing written. */
  addAddress(entry: AllowedAddress, audit: AuditEntry): Promise<'added' | 'full' | 'listed'>;
  /** Removes the address's entry on `network` (null: the entry added before entries named a network)
   * with its audit entry; 'not-listed', and nothing written, if there is none. */
  removeAddress(companyId: string, network: NetworkName | null, address: string, audit: AuditEntry): Promise<'removed' | 'not-listed'>;
  /** Writes the allowlist's switch (`enabled`, `offFrom`) with its audit entry. */
  setAllowlist(companyId: string, allowlist: Pick<WithdrawalAllowlist, 'enabled' | 'offFrom'>, audit: AuditEntry): Promise<void>;
}

/** What changes an allowlist needs: the store, the stage's waiting period and contracts, and the mail. */
export interface AllowlistDeps {
  store: AllowlistStore;
  /** The contracts Cambio uses on each network, never an entry (refused-destinations.ts). */
  contracts: StageContracts;
  /** The chain read of a destination its form cannot settle (a Solana token account); absent, such an entry is refused. */
  destinations?: DestinationChecks;
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
  /** The network the entry allows; null for an EVM address added before entries named a network,
   * which allows none until it is added again with its network (docs/dashboard-api.md). */
  network: allowsOn(entry),
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

export async function addAllowedAddress(deps: AllowlistDeps, caller: Caller, input: { network: NetworkName; address: string; label: string }, now = new Date()) {
  requirePermission(caller.membership, 'manageAddresses');
  const { network } = input;
  const given = input.address.trim();
  const label = input.label.trim();
  const described = networkNamed(network);
  const problems = [
    // Checked as the network writes it (a mixed-case EVM address must carry its checksum); a `0x…` address is none of TRON's.
    ...(described.address.is(given) ? [] : [{ path: 'address', message: `must be ${addressOf(described)}` }]),
    ...(label.length >= 1 && label.length <= MAX_LABEL_LENGTH ? [] : [{ path: 'label', message: `must be 1-${MAX_LABEL_LENGTH} characters` }]),
  ];
  if (problems.length > 0) throw validationFailed(problems);
  const reaching = await refuseCambioDestination({ addresses: deps.store, contracts: deps.contracts, destinations: deps.destinations }, { network, address: given, field: 'address' });
  await refuseSanctioned(deps.store, network, given, 'address', reaching);
  const address = described.address.canonical(given)!;
  const entry: AllowedAddress = {
    companyId: caller.membership.companyId,
    network,
    address,
    label,
    addedBy: caller.membership.email,
    createdAt: now.toISOString(),
    activeFrom: new Date(now.getTime() + deps.delayMs).toISOString(),
  };
  const added = await deps.store.addAddress(entry, audit(caller, 'withdrawal_address.added', now, address, { network, label, activeFrom: entry.activeFrom }));
  if (added === 'full') throw new ApiError('LIMIT_REACHED', `A company may allow at most ${MAX_ALLOWED_ADDRESSES} withdrawal addresses`, { limit: MAX_ALLOWED_ADDRESSES });
  if (added === 'listed') throw validationFailed([{ path: 'address', message: `is on the withdrawal allowlist for ${network} already` }]);
  await tellManagers(deps, caller, { kind: 'address-added', network: described.title, address, label, from: entry.activeFrom });
  return addressView(entry, now);
}

/** Removes the address's entry on `network`, in any letter case; without a network, the entry added
 * before entries named one (an EVM address's, which the page lists with none), as it was added. */
export async function removeAllowedAddress(deps: Pick<AllowlistDeps, 'store'>, caller: Caller, input: { network: NetworkName | null; address: string }, now = new Date()): Promise<void> {
  requirePermission(caller.membership, 'manageAddresses');
  const { network } = input;
  const address = (network === null ? input.address : canonicalOn(network, input.address)) ?? input.address;
  const details = network === null ? null : { network };
  const removed = await deps.store.removeAddress(caller.membership.companyId, network, address, audit(caller, 'withdrawal_address.removed', now, address, details));
  if (removed === 'not-listed') throw notFound('Withdrawal address');
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
