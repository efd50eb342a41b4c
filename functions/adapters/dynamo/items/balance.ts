import { BUCKETS, type Bucket } from '#functions/ledger/ledger';
import type { BalanceRow } from '#functions/companies/company';
import type { Currency } from '#functions/shared/money';
import { toBigInt } from '../client.ts';
import { companyRecord, type Item } from './item.ts';

/**
 * Items one balance (a company, a currency) is spread over. Every money operation of a company
 * writes its balance in a transaction, and DynamoDB takes about 1,000 write units a second on one
 * item, two a transactional write: one item would cap a company near 500 money operations a
 * second, below the highest rate tier (config/capacity.ts, docs/capacity.md "Hot items"). Spread
 * over this many, the tier's operations (each writing at most two shards: one it takes from, one
 * it adds to) stay under half of each shard's limit; test/infra/capacity.test.ts checks the
 * arithmetic against the tiers.
 */
export const BALANCE_SHARDS = 8;

/** One shard's buckets as stored. */
export type ShardBuckets = Record<Bucket, bigint>;

const bucketOf = (item: Item, bucket: Bucket): bigint => (item[bucket] === undefined ? 0n : toBigInt(item[bucket]));

const shardOf = (item: Item): number => Number(String(item.shard ?? 0));

/**
 * The one owner of a company's stored `Balance` items (docs/data-model.md): per currency, shard 0
 * (`BALANCE#USDT`, written with the company) and shards 1 to BALANCE_SHARDS − 1
 * (`BALANCE#USDT#3`), each made by the first credit that lands on it. A balance is the sum of its
 * shards; every shard's bucket stays at or above zero, so the sum does too.
 */
export const balanceItem = {
  ...companyRecord('Balance', 'BALANCE#'),

  /** A shard's key; shard 0 is the item a company's balance was before it was spread. */
  shardKey: (companyId: string, currency: Currency, shard: number) => balanceItem.key(companyId, shard === 0 ? currency : `${currency}#${shard}`),

  /** A currency's shards: the prefix also matches no other currency's, as `currency` is checked on read. */
  shardsOf: (companyId: string, currency: Currency) => ({ ...balanceItem.ofCompany(companyId), skPrefix: `BALANCE#${currency}` }),

  /** The shard an operation adds to: its subject's (the deposit, withdrawal or conversion an entry
   * is of), so what one operation puts in `pending` or `locked` is on the shard its later entries
   * take it from, and a company's operations spread over every shard. */
  shardOfSubject: (subject: string): number => {
    // FNV-1a: ids end in random characters, so any stable hash spreads them evenly.
    let hash = 0x811c9dc5;
    for (let index = 0; index < subject.length; index++) hash = Math.imul(hash ^ subject.charCodeAt(index), 0x01000193) >>> 0;
    return hash % BALANCE_SHARDS;
  },

  /** Shard 0 of a new company's balance in a currency (written with the company). */
  toItem: (companyId: string, row: BalanceRow): Item => ({
    ...balanceItem.head(companyId, row.currency),
    companyId,
    ...row,
  }),

  /** One shard's row, as stored. */
  fromItem: (item: Item): BalanceRow & { shard: number } => ({
    currency: item.currency as Currency,
    // A shard holds only the buckets credited to it so far; shard 0 items made before deposits could
    // be held have no `held`.
    available: bucketOf(item, 'available'),
    pending: bucketOf(item, 'pending'),
    locked: bucketOf(item, 'locked'),
    held: bucketOf(item, 'held'),
    updatedAt: item.updatedAt as string,
    shard: shardOf(item),
  }),

  /** A company's balance per currency: its shards summed, dated by the latest. */
  summed: (items: readonly Item[]): BalanceRow[] => {
    const byCurrency = new Map<Currency, BalanceRow>();
    for (const item of items) {
      if (!balanceItem.isOne(item)) continue;
      const { shard: _shard, ...row } = balanceItem.fromItem(item);
      const sum = byCurrency.get(row.currency);
      if (!sum) {
        byCurrency.set(row.currency, row);
        continue;
      }
      for (const bucket of BUCKETS) sum[bucket] += row[bucket];
      if (row.updatedAt > sum.updatedAt) sum.updatedAt = row.updatedAt;
    }
    return [...byCurrency.values()];
  },

  /** Each shard's buckets of one currency, by shard number, from a read of `shardsOf`. */
  shardBuckets: (items: readonly Item[], currency: Currency): Map<number, ShardBuckets> =>
    new Map(
      items
        .filter((item) => balanceItem.isOne(item) && item.currency === currency)
        .map((item) => {
          const { shard, available, pending, locked, held } = balanceItem.fromItem(item);
          return [shard, { available, pending, locked, held }];
        }),
    ),

  /**
   * The update that changes one shard's buckets by `deltas` in a transaction: each bucket a debit
   * takes from guarded to stay at or above zero (a shard never made fails the guard, as it holds
   * nothing). Shard 0 must exist (written with the company); another is made by its first credit.
   */
  shardUpdate: (companyId: string, currency: Currency, shard: number, deltas: Map<Bucket, bigint>, at: string) => {
    const sets: string[] = ['updatedAt = :now'];
    const conditions: string[] = shard === 0 ? ['attribute_exists(PK)'] : [];
    const values: Item = { ':now': at };
    const names: Record<string, string> = {};
    if (shard !== 0) {
      sets.push('#type = :type', 'companyId = :companyId', 'currency = :currency', '#shard = :shard');
      Object.assign(values, { ':type': balanceItem.type, ':companyId': companyId, ':currency': currency, ':shard': shard });
      Object.assign(names, { '#type': 'type', '#shard': 'shard' });
    }
    for (const [bucket, delta] of deltas) {
      if (delta === 0n) continue;
      // A shard made by a credit has only the buckets credited so far; `held` is absent from shard
      // 0 items made before deposits could be held.
      sets.push(`${bucket} = if_not_exists(${bucket}, :zero) + :${bucket}`);
      values[':zero'] = 0n;
      values[`:${bucket}`] = delta;
      if (delta < 0n) {
        conditions.push(`${bucket} >= :${bucket}Needed`);
        values[`:${bucket}Needed`] = -delta;
      }
    }
    return {
      key: balanceItem.shardKey(companyId, currency, shard),
      expression: `SET ${sets.join(', ')}`,
      ...(conditions.length > 0 && { condition: conditions.join(' AND ') }),
      values,
      ...(Object.keys(names).length > 0 && { names }),
    };
  },
};
