/**
 * Which of a block's recipients are deposit addresses, answered from memory: a chain's blocks are
 * mostly transfers between strangers, and a read per recipient made the scanner cost ~5 DynamoDB
 * requests a block. Keyed by the address string alone, so any network's scanner can use it.
 *
 * The filter holds every listed deposit address with its owner. It is loaded whole once per
 * process (a Lambda keeps it across warm invocations) and then refreshed with what was listed
 * since. A scanner refreshes it after reading the chain and before matching, which is what makes a
 * miss a definite "not ours": a deposit's address is listed in the deposit's own transaction,
 * before anyone can pay it, so before the block holding the payment exists, so before the chain
 * read that returned the block, so before the refresh's consistent read began.
 */
export interface ListedDepositAddress {
  address: string;
  /** The address's derivation index: the listing holds every address once it holds index 0. */
  addressIndex: number;
  owner: AddressOwner;
}

export interface DepositAddressListing {
  /** Deposit addresses listed with a creation time at or after `since` (every one when null),
   * read consistently. */
  depositAddressesListed(since: string | null): Promise<ListedDepositAddress[]>;
  /** One batched read: the owners of those of `addresses` that are deposit addresses. */
  ownersOf(addresses: string[]): Promise<Map<string, AddressOwner>>;
  /** Whether every deposit address was listed as it was made (a table whose address indexes this
   * code handed out from 0): one read. */
  listsEveryAddress(): Promise<boolean>;
}

/** The deposit an address belongs to. */
export interface AddressOwner {
  companyId: string;
  depositId: string;
}

/**
 * How far before the last refresh the next one starts reading: an address is listed under the
 * creation time its API call stamped, which may precede its commit by the call's duration and
 * differ from this clock by the clocks' skew. Entries in the margin are read again, harmlessly.
 */
export const LISTING_MARGIN_MS = 5 * 60_000;

export class DepositAddressFilter {
  private readonly owners = new Map<string, AddressOwner>();
  /** Every address in lower case: an EVM chain reads recipients from raw log topics, in lower case,
   * and checksumming each to look it up in `owners` would cost a keccak per stranger. */
  private readonly lowerCase = new Set<string>();
  /** True once the listing is known to hold every deposit address: the address index counter says
   * so, or it holds the first one made (index 0). A table with deposit addresses that are not
   * listed has neither, and then every recipient the filter does not know is read, as if there
   * were no filter. */
  private complete = false;
  private lastRefreshAt: number | null = null;

  constructor(
    private readonly listing: DepositAddressListing,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Reads what was listed since the last refresh (everything the first time, and every time while
   * the listing is incomplete). */
  async refresh(): Promise<void> {
    const startedAt = this.now().getTime();
    const since = this.complete && this.lastRefreshAt !== null ? new Date(this.lastRefreshAt - LISTING_MARGIN_MS).toISOString() : null;
    for (const listed of await this.listing.depositAddressesListed(since)) {
      this.owners.set(listed.address, listed.owner);
      this.lowerCase.add(listed.address.toLowerCase());
      if (listed.addressIndex === 0) this.complete = true;
    }
    // Asked after the whole listing was read: an address listed since is read by the next refresh.
    if (!this.complete) this.complete = await this.listing.listsEveryAddress();
    this.lastRefreshAt = startedAt;
  }

  /** The owners of those of `addresses` that are deposit addresses, as of the last refresh: from
   * memory, with no read, once the listing is complete. */
  async ownersOf(addresses: Iterable<string>): Promise<Map<string, AddressOwner>> {
    const found = new Map<string, AddressOwner>();
    const unknown: string[] = [];
    for (const address of new Set(addresses)) {
      const owner = this.owners.get(address);
      if (owner) found.set(address, owner);
      else if (!this.complete) unknown.push(address);
    }
    if (unknown.length > 0) for (const [address, owner] of await this.listing.ownersOf(unknown)) found.set(address, owner);
    return found;
  }

  /** False only for an address, in any letter case, that is certainly no deposit address (as of
   * the last refresh): while the listing is incomplete, every address may be one. */
  mayOwn(address: string): boolean {
    return !this.complete || this.lowerCase.has(address.toLowerCase());
  }

  /** Addresses held in memory (for the poller's log and the bench). */
  get size(): number {
    return this.owners.size;
  }
}
