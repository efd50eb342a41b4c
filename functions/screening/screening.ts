import type { NetworkName } from '../networks/names.ts';
import { canonicalOn, networksOf } from '../networks/registry.ts';
import { ApiError } from '../shared/errors.ts';
import { ScreeningListNotLoaded, type ScreeningList } from './screening-list.ts';

/**
 * Sanctions screening (../shared/networks.md, "Addresses Cambio refuses as a destination"): money
 * never leaves for an address on the screening list, the OFAC SDN list's digital-currency
 * addresses plus a stage's own entries. The list is kept per network and canonical address
 * (the network's `address.canonical`: EIP-55 on the EVM networks, so any letter case of an
 * address is one entry; base58check on TRON).
 *
 * An entry is written on every network on which its address is an address (`networksOf`): the
 * same key holds `0x…` on Ethereum, BNB Smart Chain, Polygon and Arbitrum, so OFAC's "ETH" address
 * is as sanctioned on each. So one network answers for them all.
 */

/** Why an address is on the list: OFAC's SDN list (imported), or the stage's own decision. */
export type ScreeningSource = 'ofac' | 'stage';

export interface ScreeningEntry {
  network: NetworkName;
  /** The network's canonical form. */
  address: string;
  /** On OFAC's list: the SDN feature's asset codes (`ETH`, `TRX`, `USDT`; none when it came from a
   * plain list) and when Cambio first imported it. */
  ofac: { assets: string[]; since: string } | null;
  /** The stage's own entry: why, who added it and when (`npm run screening:add`). */
  stage: { reason: string; addedBy: string; addedAt: string } | null;
}

export const isListed = (entry: Pick<ScreeningEntry, 'ofac' | 'stage'>): boolean => entry.ofac !== null || entry.stage !== null;

/** The address in the form it is stored and compared in on `network`, or null when it is none of its addresses. */
export { canonicalOn };

/** Every registered network on which `address` is an address: the ones an entry for it is written on. */
export { networksOf };

/** The refusal (../shared/api-contract.md, Withdrawals): 422 ADDRESS_NOT_ALLOWED, `details.reason: "sanctioned"`. */
export const sanctioned = (field: string, address: string): ApiError =>
  new ApiError('ADDRESS_NOT_ALLOWED', `${field} is on the sanctions screening list (OFAC SDN): Cambio sends nothing to it`, { field, address, reason: 'sanctioned' });

/** While the list has never been loaded no address can be screened, so none is taken: 503, retry
 * later (docs/api-notes.md, Everywhere). */
export const screeningUnavailable = (cause: ScreeningListNotLoaded): ApiError =>
  new ApiError('SCREENING_UNAVAILABLE', 'Sanctions screening is not available yet: no address is accepted until it is; retry later', null, { cause });

/** Refuses `address` on `network` if it, or a wallet the money reaches through it (`reaching`: a
 * Solana token account's owner, from refuseCambioDestination), is listed; one lookup of the list
 * (cached by its implementation). */
export async function refuseSanctioned(list: ScreeningList, network: NetworkName, address: string, field: string, reaching: string[] = [address]): Promise<void> {
  const listed = await list.listed(network, [...new Set([address, ...reaching])]).catch((error: unknown) => {
    throw error instanceof ScreeningListNotLoaded ? screeningUnavailable(error) : error;
  });
  if (listed.size > 0) throw sanctioned(field, address);
}
