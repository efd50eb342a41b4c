import type { NetworkName } from '#functions/networks/names';
import type { Deposit } from '#functions/deposits/deposits';
import type { AddressOwner, ListedDepositAddress } from '#functions/deposits/deposit-address-filter';
import { toBigInt } from '../client.ts';
import { globalRecord, type Item } from './item.ts';
import type { CountsTaken, SweepCounts } from '#functions/deposits/sweep-amount';

/**
 * The one owner of a stored `DepositAddress`: which deposit a TRON address was issued for, made in
 * the deposit's own transaction and never reused. The chain scanner resolves a transfer's `to`
 * with one read of it (a BatchGet for a block). Its GSI1 mark says whether USDT waits on the
 * address: `sweepDue` or `belowMinimum`, each a sparse partition the sweeper and reconciliation
 * query.
 */
export const depositAddressItem = {
  ...globalRecord('DepositAddress', 'ADDRESS', 'ADDRESS'),
  /** GSI1, sparse, one partition per network (that network's sweeper reads its own; TRON's keeps
   * the name it had alone): the address received confirmed funds since its last sweep. */
  sweepDuePartition: (network: NetworkName) => (network === 'tron' ? 'SWEEPS#due' : `SWEEPS#${network}#due`),
  sweepDue: (network: NetworkName, address: string) => ({ GSI1PK: depositAddressItem.sweepDuePartition(network), GSI1SK: address }),
  /** GSI1, sparse, instead of sweepDue: the sweeper left USDT below its minimum there, which
   * companies were credited with and reconciliation must still count. */
  belowMinimumPartition: (network: NetworkName) => (network === 'tron' ? 'SWEEPS#below_minimum' : `SWEEPS#${network}#below_minimum`),
  belowMinimum: (network: NetworkName, address: string) => ({ GSI1PK: depositAddressItem.belowMinimumPartition(network), GSI1SK: address }),
  /** GSI1, sparse, instead of sweepDue: the token's issuer froze the address, so the sweeper sets it
   * aside (functions/deposits/frozen-addresses.ts) until it is unfrozen; its USDT stays counted. */
  frozenPartition: (network: NetworkName) => `SWEEPS#${network}#frozen`,
  frozen: (network: NetworkName, address: string) => ({ GSI1PK: depositAddressItem.frozenPartition(network), GSI1SK: address }),
  /** Where the sweeper's review of the below-minimum addresses for a freeze stands on a network: the
   * last address it looked at (`after`), the next run starting past it. */
  belowMinimumReviewKey: (network: NetworkName) => ({ PK: `SWEEPS#${network}#below_minimum_review`, SK: 'CURSOR' }),
  belowMinimumReview: (network: NetworkName, after: string): Item => ({ ...depositAddressItem.belowMinimumReviewKey(network), type: 'BelowMinimumReview', after }),
  belowMinimumReviewedUpTo: (item: Item | null): string | undefined => (typeof item?.after === 'string' ? item.after : undefined),

  toItem: (deposit: Pick<Deposit, 'address' | 'addressIndex' | 'companyId' | 'id' | 'createdAt'>): Item => ({
    ...depositAddressItem.head(deposit.address),
    address: deposit.address,
    addressIndex: deposit.addressIndex,
    companyId: deposit.companyId,
    depositId: deposit.id,
    createdAt: deposit.createdAt,
  }),
  /** What an owner read projects: `address`, `companyId`, `depositId`. */
  ownerProjection: { expression: '#address, companyId, depositId', names: { '#address': 'address' } },
  ownerFromItem: (item: Item): AddressOwner => ({ companyId: item.companyId as string, depositId: item.depositId as string }),
  addressOf: (item: Item): string => item.address as string,
  /** USDT credited to the address's company since its last sweep (added by each credit, removed when
   * a sweep empties it). An item from before it was counted has none: the deposit's whole credit
   * stands for it. */
  creditedUnsweptOf: (item: Item, creditedAmount: bigint): bigint => depositAddressItem.countedCreditOf(item) ?? creditedAmount,
  /** The count alone, null where the item has none. */
  countedCreditOf: (item: Item): bigint | null => {
    if (item.creditedUnsweptUsdt === undefined) return null;
    // A person's release takes its amount off (releaseFrozenCredit): off an item that stood on the
    // deposit's credit, that can go below zero, which counts as nothing.
    const counted = toBigInt(item.creditedUnsweptUsdt);
    return counted > 0n ? counted : 0n;
  },
  /** An address marked sweepDue, as the sweeper reads it: `dueSince` is the mark's time, which
   * clearing the mark is conditional on (a confirmation since sets a later one). */
  sweepCandidateFromItem: (item: Item) => ({
    address: item.address as string,
    addressIndex: Number(toBigInt(item.addressIndex)),
    depositId: item.depositId as string,
    dueSince: item.sweepDueSince as string,
  }),
  isOne: (item: Item): boolean => item.type === depositAddressItem.type,
};

/**
 * The counts a `DepositAddress` keeps for its network's sweeper (functions/deposits/sweep-amount.ts):
 * part of the same record, apart from `depositAddressItem` so that the API functions that read a
 * deposit address (its owner, the refused destinations) do not bundle the sweeper's updates.
 */
export const depositAddressCounts = {
  /**
   * The ADD clause that moves the address's counts by a change (or a sweep, by negative amounts):
   * `credited`, the credit counted as still there (creditedUnsweptUsdt); `sweepable`, the USDT recorded
   * there that its sweeper may move (sweepableUsdt); `starts`, the deposit's first credit, which
   * marks the sweepable count whole (countsSweepable). ADD makes a count on its first write, even of
   * zero. Null when none moves.
   */
  countsAdded: (by: { credited?: bigint; sweepable?: bigint; starts?: boolean }): { clause: string; values: Item } | null => {
    const adds = [
      ...(by.credited === undefined ? [] : [['creditedUnsweptUsdt', ':counted', by.credited] as const]),
      ...(by.sweepable === undefined ? [] : [['sweepableUsdt', ':sweepable', by.sweepable] as const]),
      ...(by.starts ? [['countsSweepable', ':starts', 1n] as const] : []),
    ];
    if (adds.length === 0) return null;
    return { clause: `ADD ${adds.map(([name, value]) => `${name} ${value}`).join(', ')}`, values: Object.fromEntries(adds.map(([, value, amount]) => [value, amount])) };
  },
  /**
   * The USDT recorded at the address that its sweeper may move: every credited transfer's amount
   * (a held one's once released), less what its sweeps took. Null where the count is not whole (no
   * `countsSweepable`, which only the deposit's first credit writes, so never on an address first
   * credited before the count was kept, nor by a poller of that time still running while a deploy
   * rolls out): there a sweep moves the whole balance, as it always did.
   */
  sweepableOf: (item: Item): bigint | null => (item.countsSweepable === undefined ? null : toBigInt(item.sweepableUsdt ?? 0)),
  /** The counts a sweep reads before it takes its amount: what it may move, and the credit a freeze would take back. */
  sweepCountsOf: (item: Item | null): SweepCounts => ({
    sweepable: item ? depositAddressCounts.sweepableOf(item) : null,
    credited: (item && depositAddressItem.countedCreditOf(item)) ?? 0n,
    dust: item?.dustBaseUnits === undefined ? 0n : toBigInt(item.dustBaseUnits),
  }),
  /** The update that brings the address's counts down to `there` where they are above it, on
   * condition that they are still as `item` has them (a credit meanwhile adds to them); null where
   * none is above it. */
  countsLoweredTo: (item: Item, there: bigint) => {
    const sets: string[] = [];
    const conditions: string[] = [];
    const values: Item = { ':there': there };
    for (const [name, read] of [['sweepableUsdt', item.sweepableUsdt], ['creditedUnsweptUsdt', item.creditedUnsweptUsdt]] as const) {
      if (read === undefined) continue;
      const placeholder = `:${name}`;
      values[placeholder] = read;
      conditions.push(`${name} = ${placeholder}`);
      if (toBigInt(read) > there) sets.push(`${name} = :there`);
    }
    if (sets.length === 0) return null;
    return { UpdateExpression: `SET ${sets.join(', ')}`, ConditionExpression: conditions.join(' AND '), ExpressionAttributeValues: values };
  },
  /** The update a dust transfer's recording makes to its address: its base units added (dustBaseUnits). */
  dustAdded: (amount: bigint) => ({ expression: 'ADD dustBaseUnits :dust', values: { ':dust': amount } }),
  /** What a sweep's record keeps of what it takes off its address's counts (a sweep's `takenOffCounts`,
   * stored on it as a map); null where it keeps none. */
  takenFromItem: (stored: unknown): CountsTaken | null => {
    if (stored === undefined || stored === null) return null;
    const { sweepable, credited } = stored as Item;
    return { sweepable: toBigInt(sweepable), credited: toBigInt(credited) };
  },
  /** The update a landed sweep makes to its address's counts, in the transaction that records it. */
  sweptOff: (taken: CountsTaken) => depositAddressCounts.countsAdded({ credited: -taken.credited, sweepable: -taken.sweepable })!,
};

/** An address's entry in a batch sweep's record with what the sweep takes off its counts, where it keeps any. */
export function withTakenOffCounts(stored: unknown): { takenOffCounts?: CountsTaken } {
  const taken = depositAddressCounts.takenFromItem(stored);
  return taken ? { takenOffCounts: taken } : {};
}

/**
 * The one owner of a stored `DepositAddressListed`: every deposit address in the order it was made,
 * one partition sorted by creation time, written in the deposit's own transaction beside its
 * `DepositAddress`. The scanner's address filter (functions/deposits/deposit-address-filter.ts) loads
 * it once and then reads only what was listed since, so a transfer to a stranger costs no read.
 */
export const depositAddressListedItem = {
  type: 'DepositAddressListed',
  partition: 'DEPOSIT_ADDRESSES',
  toItem: (deposit: Pick<Deposit, 'address' | 'addressIndex' | 'companyId' | 'id' | 'createdAt'>): Item => ({
    PK: depositAddressListedItem.partition,
    SK: `${deposit.createdAt}#${deposit.address}`,
    type: depositAddressListedItem.type,
    address: deposit.address,
    addressIndex: deposit.addressIndex,
    companyId: deposit.companyId,
    depositId: deposit.id,
    createdAt: deposit.createdAt,
  }),
  /** An entry's sort key, where a reader that pages through the listing resumes. */
  sortKeyOf: (item: Item): string => item.SK as string,
  /** The sort key from which entries made at or after `createdAt` are listed. */
  from: (createdAt: string) => createdAt,
  /** The key a page read resumes after, from the sort key of the entry it read last. */
  keyAt: (sortKey: string) => ({ PK: depositAddressListedItem.partition, SK: sortKey }),
  /** What a read of the listing for `fromItem` projects: `address`, `addressIndex`, `companyId`,
   * `depositId`. It costs the same read units as the whole entry; it spares the bytes sent and
   * parsed, and what a page holds in memory while it is read. */
  listedProjection: { expression: '#address, addressIndex, companyId, depositId', names: { '#address': 'address' } },
  fromItem: (item: Item): ListedDepositAddress => ({
    address: item.address as string,
    addressIndex: Number(toBigInt(item.addressIndex)),
    owner: depositAddressItem.ownerFromItem(item),
  }),
};

/**
 * Deposit address indexes are handed out from blocks of this many, one counter write a block. The
 * counter is one item for the whole stage: written once per deposit it would cap every company's
 * deposits together near DynamoDB's 1,000 writes a second on one item (docs/capacity.md, Hot
 * items). A block left unused by a process that ends is a gap in the indexes, which nothing needs
 * to be without: an index only names the key an address is derived at.
 */
export const ADDRESS_INDEX_BLOCK = 100;

/** The counter that hands out deposit address indexes (m/44'/195'/0'/0/i): each once, never twice. */
export const addressIndexCounterItem = {
  type: 'Counter',
  key: () => ({ PK: 'COUNTER#DEPOSIT_ADDRESS_INDEX', SK: 'COUNTER' }),
  /** The counter after an `ADD nextIndex`: one past the last index it handed out (deposit-store.ts takes a block at a time). */
  nextIndexOf: (item: Item): number => Number(toBigInt(item.nextIndex)),
  /** Set by the reservation that made the counter (index 0 on): every address since was listed in
   * its deposit's own transaction, so the listing holds them all even where index 0's deposit was
   * refused after taking it. Absent on a counter older than the listing. */
  listsEveryAddressOf: (item: Item): boolean => item.listsEveryAddress === true,
};
