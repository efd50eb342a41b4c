import { MAX_CHANGES_PER_WRITE } from '#adapters/dynamo/deposit-chain-store';
import { BALANCE_SHARDS } from '#adapters/dynamo/items/balance';
import { ADDRESS_INDEX_BLOCK } from '#adapters/dynamo/items/deposit-address';
import { DAY_TOTAL_PARTS } from '#adapters/dynamo/items/withdrawal-limit';

/**
 * The items one company's money operations write or check at every operation, and the one item
 * every company's deposits share, against DynamoDB's most on one item a second (docs/capacity.md,
 * Hot items). Data and arithmetic only, like config/capacity.ts; test/unit/hot-items.test.ts holds
 * each item to its limit at the highest tier of each stage (or, for a stage-wide item, at the
 * stage's throttle).
 *
 * Units: a write of an item under 1 KB is one write unit, two in a transaction; a consistent read
 * under 4 KB is one read unit, and a transaction's condition check on an item two. Every item here
 * is under 1 KB.
 */

/** DynamoDB's most a second on one item (one partition's): write and read units. */
export const ITEM_LIMIT = { writeUnits: 1_000, readUnits: 3_000 } as const;

const TRANSACTIONAL = 2;

export interface HotItem {
  item: string;
  /** What writes or checks it, and how. */
  by: string;
  /** Whose operations reach it: one company's (at its tier) or every company's (at the stage's throttle). */
  scope: 'company' | 'stage';
  /** The units the busiest of its items takes a second when `operationsPerSecond` operations reach it. */
  perItem(operationsPerSecond: number): { writeUnits: number; readUnits: number };
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
];

/** The busiest item's share of DynamoDB's item limit, the larger of its writes' and its reads'. */
export function shareOfItemLimit(item: HotItem, operationsPerSecond: number): number {
  const { writeUnits, readUnits } = item.perItem(operationsPerSecond);
  return Math.max(writeUnits / ITEM_LIMIT.writeUnits, readUnits / ITEM_LIMIT.readUnits);
}
