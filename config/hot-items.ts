import { MAX_CHANGES_PER_WRITE } from '#adapters/dynamo/deposit-chain-store';
import { BALANCE_SHARDS } from '#adapters/dynamo/items/balance';
import { chainTransferItem } from '#adapters/dynamo/items/chain-transfer';
import { depositItem } from '#adapters/dynamo/items/deposit';
import { ADDRESS_INDEX_BLOCK, depositAddressListedItem } from '#adapters/dynamo/items/deposit-address';
import { eventItem } from '#adapters/dynamo/items/event';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { DAY_TOTAL_PARTS } from '#adapters/dynamo/items/withdrawal-limit';

/**
 * The items one company's money operations write or check at every operation, the one item every
 * company's deposits share, and the ranges every company's writes share under sort keys that only
 * grow, against DynamoDB's most on one item, or one partition, a second (docs/capacity.md, Hot
 * items). Data and arithmetic only, like config/capacity.ts; test/unit/hot-items.test.ts holds each
 * company's item to its limit at the highest tier of each stage, and says at what rate each
 * stage-wide one gives, against the stage's throttle (a method's: one method's requests reach it).
 *
 * Units: a write of an item under 1 KB is one write unit, two in a transaction; a consistent read
 * under 4 KB is one read unit, and a transaction's condition check on an item two. Every item here
 * is under 1 KB. An index's copy of an item is written apart from the transaction, one unit for each
 * item written to (or removed from) the index.
 *
 * A range under a sort key that only grows (a time, a ULID) is one partition's however large the
 * range: DynamoDB splits a busy partition by sort key, but each write lands past the last, in the
 * newest partition, so a split gives that end no more than one partition's 1,000 write units.
 */

/** DynamoDB's most a second on one item (one partition's): write and read units. */
export const ITEM_LIMIT = { writeUnits: 1_000, readUnits: 3_000 } as const;

const TRANSACTIONAL = 2;
/** One item written to or removed from GSI1. */
const INDEX_WRITE = 1;

export interface HotItem {
  item: string;
  /** What writes or checks it, and how. */
  by: string;
  /** Whose operations reach it: one company's (at its tier) or every company's (at the stage's throttle). */
  scope: 'company' | 'stage';
  /** The units the busiest of its items takes a second when `operationsPerSecond` operations reach it. */
  perItem(operationsPerSecond: number): { writeUnits: number; readUnits: number };
  /** A range every company's writes share at its end: the partition key they meet (TRON's, where
   * each network has one), as docs/capacity.md names it. */
  partition?: string;
}

export const HOT_ITEMS: readonly HotItem[] = [
  {
    item: `Balance, a company's in one currency: ${BALANCE_SHARDS} shards`,
    by: "every money operation: at most two shards written in its transaction (a withdrawal's hold takes from one and adds to its own), spread evenly; a debit of `available` reads the shards (one Query, consistent) when its process knows nothing of them or placed it wrong, counted here as if every one did",
    scope: 'company',
    perItem: (rate) => ({ writeUnits: (rate * 2 * TRANSACTIONAL) / BALANCE_SHARDS, readUnits: rate }),
  },
  {
    item: 'Balance shard 0, a company’s in one currency',
    by: `its share of every money operation, as any shard, and its deposits' pending and held (balance-shards.ts shardsOfSubject), which the chain jobs write in batches of up to ${MAX_CHANGES_PER_WRITE} deposits: one write a batch when a payment is seen, one when it is confirmed`,
    scope: 'company',
    perItem: (rate) => ({ writeUnits: (rate * 2 * TRANSACTIONAL) / BALANCE_SHARDS + ((2 * rate) / MAX_CHANGES_PER_WRITE) * TRANSACTIONAL, readUnits: rate }),
  },
  {
    item: `WithdrawalDay, a company's total for a day: ${DAY_TOTAL_PARTS} parts`,
    by: 'every withdrawal while a daily limit is in force: one part written in its transaction (two where the amount is split), parts chosen at random',
    scope: 'company',
    perItem: (rate) => ({ writeUnits: (rate * 2 * TRANSACTIONAL) / DAY_TOTAL_PARTS, readUnits: rate }),
  },
  {
    item: 'WithdrawalLimit, a company’s',
    by: 'every withdrawal: a condition check in its transaction (no limit in force, or the version read)',
    scope: 'company',
    perItem: (rate) => ({ writeUnits: 0, readUnits: rate * TRANSACTIONAL }),
  },
  {
    item: 'WithdrawalAllowlist, a company’s',
    by: 'every withdrawal: a condition check in its transaction (the allowlist off)',
    scope: 'company',
    perItem: (rate) => ({ writeUnits: 0, readUnits: rate * TRANSACTIONAL }),
  },
  {
    item: 'the deposit address counter, the stage’s',
    by: `POST /v1/deposits of every company: one write a block of ${ADDRESS_INDEX_BLOCK} indexes, per process`,
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate / ADDRESS_INDEX_BLOCK, readUnits: 0 }),
  },
  {
    item: 'the deposit address listing, the stage’s: one partition, every network’s addresses in the order they were made',
    by: 'POST /v1/deposits of every company: one item put in the deposit’s transaction, its sort key the deposit’s creation time (`createdAt#address`), so each lands at the end of the range',
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate * TRANSACTIONAL, readUnits: 0 }),
    partition: depositAddressListedItem.partition,
  },
  {
    item: 'GSI1’s deposits awaiting payment, the stage’s: every network’s',
    by: 'POST /v1/deposits of every company: the new deposit enters the index under its expiry (`expiresAt#id`, its creation and 24 h), the end of the range',
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate * INDEX_WRITE, readUnits: 0 }),
    partition: depositItem.byStatus('awaiting_payment', '', '').GSI1PK,
  },
  {
    item: 'GSI1’s pending withdrawals, one range per network',
    by: 'every new withdrawal on the network, of every company (POST /v1/withdrawals, the dashboard’s Send withdrawal, a deposit’s split share): it enters the index under its id, a ULID, the end of the range',
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate * INDEX_WRITE, readUnits: 0 }),
    partition: withdrawalItem.byStatus('tron', 'pending', '').GSI1PK,
  },
  {
    item: 'GSI1’s undispatched events, the stage’s',
    by: 'every event of every company (a deposit confirming and completed, a payout processing and completed, a conversion completed): marked under its id, a ULID, in the transaction that makes it, and unmarked by the dispatcher from the table’s stream about a second later, so both writes meet the end of the range; counted per event',
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate * 2 * INDEX_WRITE, readUnits: 0 }),
    partition: eventItem.undispatchedPartition,
  },
  {
    item: 'GSI1’s payments confirming, one range per network',
    by: 'every payment to a deposit address the network’s scanner sees, of every company: it enters the index under its block number until it is final, the end of the range; counted per payment',
    scope: 'stage',
    perItem: (rate) => ({ writeUnits: rate * INDEX_WRITE, readUnits: 0 }),
    partition: chainTransferItem.confirmingPartition('tron'),
  },
];

/** The operations a second at which an item's busiest item, or its range's end, reaches DynamoDB's limit. */
export function ceilingOf(item: HotItem): number {
  const probe = 1_000;
  return Math.floor(probe / shareOfItemLimit(item, probe));
}

/** The busiest item's share of DynamoDB's item limit, the larger of its writes' and its reads'. */
export function shareOfItemLimit(item: HotItem, operationsPerSecond: number): number {
  const { writeUnits, readUnits } = item.perItem(operationsPerSecond);
  return Math.max(writeUnits / ITEM_LIMIT.writeUnits, readUnits / ITEM_LIMIT.readUnits);
}
