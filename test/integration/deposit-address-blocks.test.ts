import { describe, expect, it } from 'vitest';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { ADDRESS_INDEX_BLOCK, addressIndexCounterItem } from '#adapters/dynamo/items/deposit-address';
import { readItem } from '#adapters/dynamo/queries';
import { freshTable } from '../support/dynamo.ts';

/** The stage-wide address counter is written once per block of indexes, not once per deposit
 * (docs/capacity.md, Hot items), and no index is ever handed out twice. */
describe('deposit address indexes in blocks', () => {
  it('two processes taking 275 indexes each, all at once: 550 distinct indexes from six counter writes', async () => {
    const { db, tableName } = await freshTable();
    // Two Lambda instances: each keeps its own store, and so its own block.
    const processes = [new DynamoDepositStore(db, tableName), new DynamoDepositStore(db, tableName)];

    const indexes = await Promise.all(processes.flatMap((store) => Array.from({ length: 275 }, () => store.nextAddressIndex())));

    expect(new Set(indexes).size).toBe(550);
    expect(indexes.every((index) => Number.isInteger(index) && index >= 0 && index < 6 * ADDRESS_INDEX_BLOCK)).toBe(true);
    // ceil(275 / 100) = 3 blocks each: the counter moved by six blocks, where an index a write would
    // have moved it by 550.
    const counter = await readItem(db, tableName, addressIndexCounterItem.key());
    expect(addressIndexCounterItem.nextIndexOf(counter!)).toBe(6 * ADDRESS_INDEX_BLOCK);
  });

  it('a process started later continues after every block handed out, never inside one', async () => {
    const { db, tableName } = await freshTable();
    const first = new DynamoDepositStore(db, tableName);
    expect(await first.nextAddressIndex()).toBe(0);
    expect(await first.nextAddressIndex()).toBe(1);

    const later = new DynamoDepositStore(db, tableName);
    expect(await later.nextAddressIndex()).toBe(ADDRESS_INDEX_BLOCK);
    expect(await first.nextAddressIndex()).toBe(2);
  });
});
