import type { FrozenAddressList } from '../../deposits/frozen-addresses.ts';
import type { ListedDepositAddress } from '../../deposits/deposit-address-filter.ts';
import type { CountsTaken, SweepCounts } from '../../deposits/sweep-amount.ts';

/**
 * A Solana sweep as it is stored, and the store the sweeper writes it through: apart from
 * ./sweeps.ts (which signs and sends them) so that the record (./sweep-record.ts) and the table's
 * store (./sweep-store.ts) name these shapes without importing the sweeper that imports them.
 */
export type SolanaSweepStatus = 'sending' | 'done' | 'failed';

export interface SweptTokenAccount {
  /** The deposit address: the owner wallet, whose key signs. */
  owner: string;
  /** Its index, where its key is derived (m/44'/501'/i'/0'). */
  addressIndex: number;
  /** Its USDT associated token account, emptied and closed. */
  tokenAccount: string;
  /** USDT moved, minor units (6 decimals on Solana too): its whole balance when signed. */
  amount: bigint;
  /** Lamports it held, its rent, returned to the hot wallet when it is closed. */
  rent: bigint;
  /** What it takes off the address's counts once the sweep lands (functions/deposits/sweep-amount.ts);
   * absent where they were never kept, and on sweeps signed before. */
  takenOffCounts?: CountsTaken;
}

/** Where the reclaim of expired deposit accounts (./deposit-accounts.ts) stands in the deposit
 * address listing: the place it has handled up to (a sort key; null before the first), and the
 * deposit addresses after it whose accounts its last run sent to be closed, counted reclaimed once
 * a run reads them closed. */
export interface ReclaimCursor {
  after: string | null;
  closing: string[];
}

export interface SolanaSweep {
  /** The first version's signature. */
  id: string;
  status: SolanaSweepStatus;
  /** The hot wallet: the fee payer, where the USDT and the rent go. */
  wallet: string;
  accounts: SweptTokenAccount[];
  /** Their USDT together. */
  amount: bigint;
  /** Their rent together, lamports. */
  rent: bigint;
  /** The transaction also creates the hot wallet's token account. */
  createsHotWalletAccount: boolean;
  /** The newest version's signature (base58): the transaction's id. */
  signature: string;
  /** The newest version, signed, base64 wire form: what is broadcast. */
  wire: string;
  /** The newest version cannot land in a block above this height. */
  lastValidBlockHeight: bigint;
  /** Versions signed before, each replaced only once it could no longer land. */
  earlierSignatures: string[];
  /** When the newest version was signed and first sent. */
  broadcastAt: string | null;
  /** The transaction's error (failed), or why it was not signed again. */
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A sweep-due deposit address as the due list gives it. */
export interface DueOwner {
  address: string;
  addressIndex: number;
}

export interface SolanaSweepStore extends FrozenAddressList {
  /** Deposit addresses with a credited deposit since their last sweep, a page of at most `limit` in
   * address order after `after`, and where the next page starts (null at the end): a page can come
   * back short while more follow (an address with a payment confirming is left out). */
  dueAddresses(limit: number, after?: string): Promise<{ due: DueOwner[]; next: string | null }>;
  /** Nothing (more) to sweep there until a new deposit is credited; `remaining`, below the minimum,
   * stays listed for reconciliation. */
  clearDue(address: string, remaining: bigint): Promise<void>;
  openSweeps(): Promise<SolanaSweep[]>;
  /** The sweep, its addresses' marks and its signature's claim, in one write: 'address-taken' when
   * an address is in another open sweep (nothing written). */
  storeSweep(sweep: SolanaSweep): Promise<'written' | 'address-taken'>;
  /** Writes `after` if the sweep is still as `before`; false when another sweeper moved it first. */
  saveSweep(before: SolanaSweep, after: SolanaSweep): Promise<boolean>;
  /** What each address's counts allow a sweep to take (sweep-amount.ts), read consistently. */
  sweepCountsAtEach(addresses: string[]): Promise<Map<string, SweepCounts>>;
  /** A landed sweep's amounts off its addresses' counts, once per sweep whatever the retries. */
  takeOffCounts(sweepId: string, taken: { address: string; taken: CountsTaken }[]): Promise<void>;
  /** Deposit addresses of every network listed (in the order made) at or after `since` (a time). */
  depositAddressesListed(since: string): Promise<ListedDepositAddress[]>;
  /** A page of them: at most `limit` after the place `after` (from the start when null), made before
   * `before` (a time), each with its place. */
  listedAddressesAfter(after: string | null, before: string, limit: number): Promise<{ address: string; sortKey: string }[]>;
  /** Where the reclaim of expired deposit accounts stands (./deposit-accounts.ts). */
  reclaimCursor(): Promise<ReclaimCursor>;
  setReclaimCursor(cursor: ReclaimCursor, at: string): Promise<void>;
  /** Of these deposits, the ones still awaiting payment or confirming. */
  depositsInProgress(deposits: { companyId: string; depositId: string }[]): Promise<Set<string>>;
}

