import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoSweepDueList } from '#adapters/dynamo/sweep-due-list';
import { depositAddressItem } from '#adapters/dynamo/items/deposit-address';
import { readItem } from '#adapters/dynamo/queries';
import { BELOW_MINIMUM_REVIEWED_PER_RUN } from '#functions/deposits/frozen-addresses';
import { useFreshTable } from '../support/dynamo.ts';

/**
 * The sweeper's review of the addresses left below the sweep minimum (frozen-addresses.ts
 * reviewFrozenAddresses), as DynamoDB Local keeps its place: each run the next page, from the first
 * again after the last, so every address comes round in turn however many there are.
 */
const env = useFreshTable();

async function belowMinimum(network: 'polygon' | 'arbitrum', count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  for (const [i, address] of addresses.entries()) {
    await env.db.send(
      new PutCommand({
        TableName: env.tableName,
        Item: { ...depositAddressItem.toItem({ address, addressIndex: i, companyId: 'cmp_1', id: `dep_${i}`, createdAt: '2026-11-30T00:00:00.000Z' }), ...depositAddressItem.belowMinimum(network, address), unsweptUsdt: 1n },
      }),
    );
  }
  return addresses;
}

describe('the review of below-minimum addresses', () => {
  it('gives the next page each run and wraps round: 30 addresses are all looked at within two runs of 25, none twice in a run', async () => {
    const addresses = await belowMinimum('polygon', 30);
    const list = new DynamoSweepDueList(env.db, env.tableName, 'polygon');

    const first = await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN);
    const second = await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN);
    const third = await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN);

    expect(first).toEqual(addresses.slice(0, 25));
    expect(second).toEqual([...addresses.slice(25), ...addresses.slice(0, 20)]);
    expect(third).toEqual([...addresses.slice(20), ...addresses.slice(0, 15)]);
    for (const page of [first, second, third]) expect(new Set(page).size).toBe(page.length);
    expect(new Set([...first, ...second])).toEqual(new Set(addresses));
  });

  it('gives every address each run when there are fewer than a page, and keeps no place then', async () => {
    const addresses = await belowMinimum('arbitrum', 3);
    const list = new DynamoSweepDueList(env.db, env.tableName, 'arbitrum');

    expect(await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN)).toEqual(addresses);
    expect(await list.belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN)).toEqual(addresses);
    expect(await readItem(env.db, env.tableName, depositAddressItem.belowMinimumReviewKey('arbitrum'))).toBeNull();
    expect(await new DynamoSweepDueList(env.db, env.tableName, 'ethereum').belowMinimumPage(BELOW_MINIMUM_REVIEWED_PER_RUN)).toEqual([]);
  });
});
