/**
 * A quantity kept over several items rather than one, so that no one item takes every write of a
 * busy company (docs/capacity.md, Hot items): a balance's shards (balance-shards.ts), a day's
 * withdrawal total's parts (withdrawal-limit-store.ts). What an operation takes is placed here.
 */

/**
 * Where `amount` goes among parts with `room` each (a shard's money, a part's share of a limit not
 * yet used): all on `own` if it has the room, else all on one part chosen at random among those
 * that have, else over several, most room first; 'insufficient' when together they have less.
 */
export function placeAmount(room: ReadonlyMap<number, bigint>, amount: bigint, own: number, random: () => number = Math.random): [number, bigint][] | 'insufficient' {
  if ((room.get(own) ?? 0n) >= amount) return [[own, amount]];
  const covering = [...room].filter(([, left]) => left >= amount).map(([part]) => part);
  if (covering.length > 0) return [[covering[Math.floor(random() * covering.length)]!, amount]];
  const takes: [number, bigint][] = [];
  let owed = amount;
  for (const [part, left] of [...room].sort(([, a], [, b]) => (a > b ? -1 : a < b ? 1 : 0))) {
    if (owed === 0n || left <= 0n) break;
    const take = left < owed ? left : owed;
    takes.push([part, take]);
    owed -= take;
  }
  return owed === 0n ? takes : 'insufficient';
}
