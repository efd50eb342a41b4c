/**
 * Which of a block's recipients are deposit addresses, answered from memory: a chain's blocks are
 * mostly transfers between strangers, and a read per recipient made the scanner cost ~5 DynamoDB
 * requests a block. Keyed by the address string alone, so one filter serves every network's
 * scanner in a process (the poller keeps one, whichever networks its container runs).
 *
 * The filter holds every listed deposit address with its owner. It reads the listing whole once
 * per process (a Lambda keeps it across warm invocations), a page at a time and, where the caller
 * gives a time, over as many runs as that takes; then it refreshes with what was listed since. A
 * scanner refreshes it after reading the chain and before matching, which is what makes a miss a
 * definite "not ours": a deposit's address is listed in the deposit's own transaction, before
 * anyone can pay it, so before the block holding the payment exists, so before the chain read that
 * returned the block, so before the refresh's consistent read began. Until the whole listing has
 * been read once, a miss is no answer: every address may be a deposit's, and those the filter does
 * not hold yet are read one batch a scan (`ownersOf`).
 */
export interface ListedDepositAddress {
  address: string;
  /** The address's derivation index: the listing holds every address once it holds index 0. */
  addressIndex: number;
  owner: AddressOwner;
}

/** One page of the listing in its order, and the place the next page starts after (null: this page
 * ends the listing). */
export interface ListingPage {
  listed: ListedDepositAddress[];
  next: string | null;
}

export interface DepositAddressListing {
  /** Deposit addresses listed with a creation time at or after `since` (every one when null),
   * read consistently. */
  depositAddressesListed(since: string | null): Promise<ListedDepositAddress[]>;
  /** At most `limit` addresses of the listing, in its order, after the place `after` (from its
   * start when null), read consistently. */
  depositAddressesListedPage(after: string | null, limit: number): Promise<ListingPage>;
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

/**
 * Addresses a page of the listing holds at most: an entry is ~300 bytes stored, so a page reads
 * ~600 KB (~150 read units consistently), under DynamoDB's 1 MB a page, and a refresh given a time
 * to stop at overruns it by one page's read at most (~70 ms on DynamoDB Local).
 */
export const LISTING_PAGE_SIZE = 2_000;

/** The filter's first whole read of the listing, which may take several refreshes (runs). */
interface ListingPass {
  /** When it began: what was listed since, less the margin, may sort under a place it had read past. */
  startedAt: number;
  /** The place of the entry read last (null: none read yet), where the next page starts. */
  after: string | null;
  /** Whether it read the first address ever made (index 0): the listing holds every one then. */
  readFirstAddress: boolean;
}

export class DepositAddressFilter {
  private readonly owners = new Map<string, AddressOwner>();
  /** Every address in lower case: an EVM chain reads recipients from raw log topics, in lower case,
   * and checksumming each to look it up in `owners` would cost a keccak per stranger. */
  private readonly lowerCase = new Set<string>();
  /** One string per company, which every one of its owners shares: a company's addresses are
   * most of the listing's, and each entry read brings its own copy of the id. */
  private readonly companyIds = new Map<string, string>();
  /** True once the listing has been read whole and is known to hold every deposit address: the
   * address index counter says so, or it holds the first one made (index 0). A table with deposit
   * addresses that are not listed has neither, and then every recipient the filter does not know
   * is read, as if there were no filter; and so is it until the whole listing has been read once. */
  private complete = false;
  /** The whole read under way (null: none, or done). */
  private pass: ListingPass | null = null;
  private lastRefreshAt: number | null = null;
  /** The refresh under way: scanners of several networks share the filter, and each refresh reads
   * on from where the one before it stopped, so they run one after the other. */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly listing: DepositAddressListing,
    private readonly now: () => Date = () => new Date(),
    private readonly pageSize: number = LISTING_PAGE_SIZE,
  ) {}

  /**
   * Reads what was listed since the last refresh; the whole listing until it has been read once
   * (and every time while it is incomplete), from where the last refresh stopped. `readUntil`:
   * a whole read stops at the first page that ends after that time, the next refresh reading on
   * (absent, it reads to the end), so that a cold start with a large listing leaves its run time
   * to scan; the filter answers as for an incomplete listing meanwhile.
   */
  refresh(readUntil?: Date): Promise<void> {
    const refreshed = this.refreshing.then(() => this.readListing(readUntil));
    this.refreshing = refreshed.catch(() => undefined);
    return refreshed;
  }

  private async readListing(readUntil: Date | undefined): Promise<void> {
    const startedAt = this.now().getTime();
    if (this.complete && this.lastRefreshAt !== null) {
      this.add(await this.listing.depositAddressesListed(listedSince(this.lastRefreshAt)));
      this.lastRefreshAt = startedAt;
      return;
    }
    const continued = this.pass !== null;
    const pass = (this.pass ??= { startedAt, after: null, readFirstAddress: false });
    for (;;) {
      const page = await this.listing.depositAddressesListedPage(pass.after, this.pageSize);
      if (this.add(page.listed)) pass.readFirstAddress = true;
      if (page.next === null) break;
      pass.after = page.next;
      if (readUntil !== undefined && this.now().getTime() >= readUntil.getTime()) return;
    }
    // Read whole. A pass begun by an earlier refresh may have missed an address listed since it
    // began, under a place it had read past (an API call's stamp precedes its commit): what was
    // listed since it began, less the margin, is read now, before the filter answers from memory,
    // as the refresh after a pass read in one refresh would read it.
    if (continued && this.add(await this.listing.depositAddressesListed(listedSince(pass.startedAt)))) pass.readFirstAddress = true;
    // Asked after the whole listing was read: an address listed since is read by the next refresh.
    this.complete = pass.readFirstAddress || (await this.listing.listsEveryAddress());
    this.pass = null;
    this.lastRefreshAt = startedAt;
  }

  /** Adds the addresses read; true when the first address ever made (index 0) is among them. */
  private add(listed: ListedDepositAddress[]): boolean {
    let first = false;
    for (const { address, addressIndex, owner } of listed) {
      let companyId = this.companyIds.get(owner.companyId);
      if (companyId === undefined) this.companyIds.set(owner.companyId, (companyId = owner.companyId));
      this.owners.set(address, { companyId, depositId: owner.depositId });
      this.lowerCase.add(address.toLowerCase());
      if (addressIndex === 0) first = true;
    }
    return first;
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

/** Where a refresh after one begun at `refreshedAt` starts reading the listing. */
const listedSince = (refreshedAt: number): string => new Date(refreshedAt - LISTING_MARGIN_MS).toISOString();
