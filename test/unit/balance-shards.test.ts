import { describe, expect, it } from 'vitest';
import { balanceKey, balancesToRead, placeChanges, shardsOfSubject, type BalanceChange, type ShardReads } from '#adapters/dynamo/balance-shards';
import { balanceItem } from '#adapters/dynamo/items/balance';
import type { ShardBuckets } from '#adapters/dynamo/items/balance';
import type { Bucket } from '#functions/ledger/ledger';

const AT = '2026-11-29T00:00:00.000Z';
const change = (shard: number, deltas: Partial<Record<Bucket, bigint>>, companyId = 'cmp_A'): BalanceChange => ({
  companyId,
  currency: 'USDT',
  shards: { available: shard, pending: shard, locked: shard, held: shard },
  deltas: new Map(Object.entries(deltas) as [Bucket, bigint][]),
  at: AT,
});
const shards = (available: Record<number, bigint>): Map<number, ShardBuckets> =>
  new Map(Object.entries(available).map(([shard, amount]) => [Number(shard), { available: amount, pending: 0n, locked: 0n, held: 0n }]));
const readOf = (available: Record<number, bigint>, companyId = 'cmp_A'): ShardReads => new Map([[balanceKey(companyId, 'USDT'), shards(available)]]);
const summary = (placed: ReturnType<typeof placeChanges>) =>
  placed === 'insufficient' ? placed : placed.map((update) => ({ shard: update.shard, ...Object.fromEntries(update.deltas) })).sort((a, b) => a.shard - b.shard);

describe('placing balance changes on shards', () => {
  it('a credit lands on its subject’s shard, with no read', () => {
    expect(balancesToRead([change(5, { available: 100n })])).toEqual(new Set());
    expect(summary(placeChanges([change(5, { available: 100n })], new Map()))).toEqual([{ shard: 5, available: 100n }]);
  });

  it('a debit of `locked` or `pending` goes, unread, to the shard its subject filled', () => {
    const completion = change(3, { locked: -11n });
    expect(balancesToRead([completion])).toEqual(new Set());
    expect(summary(placeChanges([completion], new Map()))).toEqual([{ shard: 3, locked: -11n }]);
  });

  it('a withdrawal’s hold is read first, and takes from its own shard when that covers it', () => {
    const hold = change(2, { available: -11n, locked: 11n });
    expect(balancesToRead([hold])).toEqual(new Set([balanceKey('cmp_A', 'USDT')]));
    expect(summary(placeChanges([hold], readOf({ 0: 50n, 2: 20n })))).toEqual([{ shard: 2, available: -11n, locked: 11n }]);
  });

  it('else from a shard that covers it, chosen at random, so concurrent holds spread', () => {
    const hold = change(2, { available: -11n, locked: 11n });
    const read = readOf({ 0: 50n, 4: 50n, 6: 5n });
    expect(summary(placeChanges([hold], read, () => 0))).toEqual([
      { shard: 0, available: -11n },
      { shard: 2, locked: 11n },
    ]);
    expect(summary(placeChanges([hold], read, () => 0.99))).toEqual([
      { shard: 2, locked: 11n },
      { shard: 4, available: -11n },
    ]);
  });

  it('else from several shards, largest first, when no one shard holds the amount', () => {
    const hold = change(7, { available: -100n, locked: 100n });
    expect(summary(placeChanges([hold], readOf({ 0: 40n, 1: 30n, 5: 45n })))).toEqual([
      { shard: 0, available: -40n },
      { shard: 1, available: -15n },
      { shard: 5, available: -45n },
      { shard: 7, locked: 100n },
    ]);
  });

  it('is insufficient when the shards together hold less than the debit', () => {
    expect(placeChanges([change(1, { available: -100n, locked: 100n })], readOf({ 0: 40n, 1: 59n }))).toBe('insufficient');
  });

  it('never counts the same money twice for two changes in one transaction', () => {
    const first = change(1, { available: -30n });
    const second = change(1, { available: -30n });
    expect(placeChanges([first, second], readOf({ 1: 50n }))).toBe('insufficient');
    expect(summary(placeChanges([first, second], readOf({ 1: 30n, 2: 30n }), () => 0))).toEqual([
      { shard: 1, available: -30n },
      { shard: 2, available: -30n },
    ]);
  });

  it('sums changes that meet on one shard into one update (DynamoDB takes one operation an item)', () => {
    const placed = placeChanges([change(4, { locked: -10n, available: 10n }), change(4, { locked: -5n })], new Map());
    expect(summary(placed)).toEqual([{ shard: 4, locked: -15n, available: 10n }]);
  });

  it('keeps two companies’ balances apart', () => {
    const placed = placeChanges([change(1, { available: 5n }, 'cmp_A'), change(1, { available: 7n }, 'cmp_B')], new Map());
    expect(placed !== 'insufficient' && placed.map((update) => [update.companyId, update.shard, update.deltas.get('available')])).toEqual([
      ['cmp_A', 1, 5n],
      ['cmp_B', 1, 7n],
    ]);
  });

  it('keeps a deposit’s pending and held on shard 0, where the chain jobs’ batches write them as one item, and its credit to available on its own shard', () => {
    const deposit = 'deposit:dep_01JA0000000000000000000001';
    const own = balanceItem.shardOfSubject(deposit);
    expect(shardsOfSubject(deposit)).toEqual({ available: own, locked: own, pending: 0, held: 0 });
    const withdrawal = 'withdrawal:wdr_01JA0000000000000000000001';
    const its = balanceItem.shardOfSubject(withdrawal);
    expect(shardsOfSubject(withdrawal)).toEqual({ available: its, locked: its, pending: its, held: its });
  });

  it('writes nothing to a shard whose changes cancel out (a payment seen beside another of the same amount confirmed)', () => {
    const seen = change(0, { pending: 5n });
    const confirmed = { ...change(0, { pending: -5n, available: 5n }), shards: { available: 3, pending: 0, locked: 3, held: 0 } };
    expect(summary(placeChanges([seen, confirmed], new Map()))).toEqual([{ shard: 3, available: 5n }]);
  });
});
