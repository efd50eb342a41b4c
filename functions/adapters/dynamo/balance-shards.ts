import { BUCKETS, type Bucket } from '#functions/ledger/ledger';
import type { Currency } from '#functions/shared/money';
import { balanceItem, type ShardBuckets } from './items/balance.ts';
import { placeAmount } from './spread-items.ts';

/**
 * Where a transaction's balance changes land among a balance's shards (items/balance.ts).
 *
 * What an operation adds goes to its subject's shard (shardsOfSubject: a deposit's pending on shard
 * 0). What it takes goes, without a read, to that same shard when the bucket is one the subject
 * filled earlier (`pending` from its deposit seen, `locked` from its withdrawal's hold), which is
 * where it almost always is. `available` is filled by every deposit and conversion on their own
 * shards, so a debit of it is placed from the shards as known (transaction.ts: as the process last
 * saw them, else read): the subject's own shard if it covers the amount, else a shard chosen at
 * random among those that do (so a company's concurrent withdrawals do not all take from the richest
 * one), else several, largest first. A placement found wrong when committed (another operation took
 * the money first, or an older balance holds it on shard 0) is placed again from a fresh read.
 */

/** One entry's (or several entries') change to one company's balance in one currency. */
export interface BalanceChange {
  companyId: string;
  currency: Currency;
  /** The shard each bucket of the subject is on (shardsOfSubject). */
  shards: Record<Bucket, number>;
  deltas: Map<Bucket, bigint>;
  at: string;
}

/** A balance's shards as read, by (company, currency): balanceKey. */
export type ShardReads = Map<string, Map<number, ShardBuckets>>;

export const balanceKey = (companyId: string, currency: Currency) => `${companyId}#${currency}`;

/** One shard's update, and the balance it belongs to (for a failed guard: which to read again). */
export interface ShardUpdate {
  balance: string;
  companyId: string;
  currency: Currency;
  shard: number;
  deltas: Map<Bucket, bigint>;
  at: string;
}

/** The balances whose debits are placed from the shards as known (a debit of `available`). */
export function balancesToRead(changes: readonly BalanceChange[]): Set<string> {
  return new Set(changes.filter((change) => (change.deltas.get('available') ?? 0n) < 0n).map((change) => balanceKey(change.companyId, change.currency)));
}

/**
 * The shard updates for `changes`: one per shard touched (DynamoDB refuses two operations on one
 * item in a transaction, so changes meeting on a shard are summed), or `insufficient` when a read
 * balance holds less in a bucket than the changes take from it. A balance with no read places every
 * debit on the subject's shard.
 */
export function placeChanges(changes: readonly BalanceChange[], reads: ShardReads, random: () => number = Math.random): ShardUpdate[] | 'insufficient' {
  const updates = new Map<string, ShardUpdate>();
  const add = (change: BalanceChange, shard: number, bucket: Bucket, delta: bigint) => {
    const balance = balanceKey(change.companyId, change.currency);
    const id = `${balance}#${shard}`;
    const update = updates.get(id) ?? { balance, companyId: change.companyId, currency: change.currency, shard, deltas: new Map<Bucket, bigint>(), at: change.at };
    update.deltas.set(bucket, (update.deltas.get(bucket) ?? 0n) + delta);
    if (change.at > update.at) update.at = change.at;
    updates.set(id, update);
  };
  // What this plan has taken so far from each read shard, so two changes never count the same money.
  const left = new Map<string, Map<number, ShardBuckets>>();
  const leftOf = (balance: string): Map<number, ShardBuckets> | undefined => {
    const read = reads.get(balance);
    if (!read) return undefined;
    let copy = left.get(balance);
    if (!copy) {
      copy = new Map([...read].map(([shard, buckets]) => [shard, { ...buckets }]));
      left.set(balance, copy);
    }
    return copy;
  };

  for (const change of changes) {
    const shards = leftOf(balanceKey(change.companyId, change.currency));
    for (const bucket of BUCKETS) {
      const delta = change.deltas.get(bucket) ?? 0n;
      if (delta >= 0n) {
        if (delta > 0n) add(change, change.shards[bucket], bucket, delta);
        continue;
      }
      if (!shards) {
        add(change, change.shards[bucket], bucket, delta);
        continue;
      }
      const takes = placeDebit(shards, bucket, -delta, change.shards[bucket], random);
      if (takes === 'insufficient') return 'insufficient';
      for (const [shard, amount] of takes) {
        shards.get(shard)![bucket] -= amount;
        add(change, shard, bucket, -amount);
      }
    }
  }
  // Changes that cancel out on a shard (a batch's payment seen beside another's confirmed, of the
  // same amount) leave it as it is: no update, as DynamoDB refuses one that sets nothing but its date.
  return [...updates.values()].filter((update) => [...update.deltas.values()].some((delta) => delta !== 0n));
}

/** Which shards a debit of `amount` from `bucket` takes from, and how much from each. */
function placeDebit(shards: Map<number, ShardBuckets>, bucket: Bucket, amount: bigint, own: number, random: () => number): [number, bigint][] | 'insufficient' {
  return placeAmount(new Map([...shards].map(([shard, buckets]) => [shard, buckets[bucket]])), amount, own, random);
}

/**
 * The shard each bucket of a subject's entries is on. A deposit's `pending` and `held` are on shard
 * 0: the chain jobs write them for many deposits of a company in one transaction (a block's
 * payments, a run's confirmations), so its writes are already few, and on one shard such a batch
 * writes one balance item rather than up to eight (the scanner's requests per block). The rest, a
 * deposit's credit to `available` included, is on the subject's own shard, so what each operation
 * adds, and later takes, spreads over all of them.
 */
export function shardsOfSubject(subject: string): Record<Bucket, number> {
  const own = balanceItem.shardOfSubject(subject);
  const batched = subject.startsWith('deposit:') ? 0 : own;
  return { available: own, locked: own, pending: batched, held: batched };
}

/** The change a ledger entry's balance deltas make, on its subject's shards. */
export function changeOf(companyId: string, currency: Currency, subject: string, deltas: Record<Bucket, bigint>, at: string): BalanceChange {
  return { companyId, currency, shards: shardsOfSubject(subject), deltas: new Map(Object.entries(deltas) as [Bucket, bigint][]), at };
}

/** The balance shards a change writes when placed without a read, as `<company>#<currency>#<shard>`:
 * for packing transactions under DynamoDB's 100 items. */
export function shardsWrittenUnread(change: BalanceChange): string[] {
  const written = [...change.deltas].filter(([, delta]) => delta !== 0n).map(([bucket]) => change.shards[bucket]);
  return [...new Set(written)].map((shard) => `${change.companyId}#${change.currency}#${shard}`);
}
