import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoScreeningList, DynamoScreeningStore, ScreeningCache, VERSION_CHECK_MS } from '#adapters/dynamo/screening-store';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { addStageEntry, removeStageEntry } from '#functions/screening/screening-import';
import { operatorAuditEntry } from '#functions/operations/operator-audit';
import { ScreeningListNotLoaded } from '#functions/screening/screening-list';
import { loadDefaultScreeningLists } from '#local/screening-defaults';
import { useFreshTable, useTableWithoutScreening, type TestTable } from '../support/dynamo.ts';

/**
 * The screening list's lookups over DynamoDB Local (adapters/dynamo/screening-store.ts): an address
 * is read at most once per container while the list's version is unchanged, the version itself at
 * most once a minute (or with an address read anyway), and a change made meanwhile is seen once the
 * version is read again. The table holds the shipped OFAC snapshot (config/screening/), as every
 * test table does.
 */
const table = useFreshTable();
const unloaded = useTableWithoutScreening();
const store = new DynamoScreeningStore(table.db, table.tableName);
const SANCTIONED_ETH = readFileSync(join(import.meta.dirname, '../../config/screening/sanctioned_ETH_sample.txt'), 'utf8').split('\n')[0]!.trim();
const SANCTIONED_TRX = readFileSync(join(import.meta.dirname, '../../config/screening/sanctioned_TRX.txt'), 'utf8').split('\n')[4]!.trim();
const lower = SANCTIONED_ETH.toLowerCase();
const upper = `0x${SANCTIONED_ETH.slice(2).toUpperCase()}`;
const UNLISTED = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A lookup with its own cache and clock, over a client that records each request and the keys it read. */
function countedList(over: TestTable = table) {
  const requests: { command: string; keys: string[] }[] = [];
  const counting = {
    send: (command: { constructor: { name: string }; input: any }) => {
      const keys = Object.values((command.input.RequestItems ?? {}) as Record<string, { Keys: { PK: string; SK: string }[] }>).flatMap(({ Keys }) => Keys.map((key) => `${key.PK}/${key.SK}`));
      requests.push({ command: command.constructor.name, keys: keys.length > 0 ? keys : [`${command.input.Key?.PK}/${command.input.Key?.SK}`] });
      return over.db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  const clock = { ms: 1_000_000 };
  const list = new DynamoScreeningList(counting, over.tableName, { cache: new ScreeningCache(), now: () => clock.ms });
  return { list, requests, clock };
}

describe('the screening list’s lookups', () => {
  it('reads an address once: a second lookup, in any letter case, is answered from the container’s cache without a read', async () => {
    const { list, requests, clock } = countedList();

    expect(await list.listed('ethereum', [lower])).toEqual(new Set([lower]));
    // One request: the address and the list's version together.
    expect(requests).toEqual([{ command: 'BatchGetCommand', keys: ['SCREENING/LIST', `SCREENING#ethereum/ADDRESS#${toChecksumAddress(lower)}`] }]);

    clock.ms += VERSION_CHECK_MS - 1;
    expect(await list.listed('ethereum', [SANCTIONED_ETH, upper, UNLISTED])).toEqual(new Set([SANCTIONED_ETH, upper]));
    // Only the address not read before.
    expect(requests.slice(1)).toEqual([{ command: 'BatchGetCommand', keys: ['SCREENING/LIST', `SCREENING#ethereum/ADDRESS#${UNLISTED}`] }]);
    expect(await list.listed('ethereum', [UNLISTED.toLowerCase(), toChecksumAddress(lower)])).toEqual(new Set([toChecksumAddress(lower)]));
    expect(requests).toHaveLength(2);
  });

  it('checks the version at most once a minute, reading the version item alone, and reads no address again while it is unchanged', async () => {
    const { list, requests, clock } = countedList();
    await list.listed('tron', [SANCTIONED_TRX]);
    clock.ms += VERSION_CHECK_MS;

    expect(await list.listed('tron', [SANCTIONED_TRX])).toEqual(new Set([SANCTIONED_TRX]));
    expect(requests.map(({ keys }) => keys)).toEqual([['SCREENING/LIST', `SCREENING#tron/ADDRESS#${SANCTIONED_TRX}`], ['SCREENING/LIST']]);
    expect(await list.listed('tron', [SANCTIONED_TRX])).toEqual(new Set([SANCTIONED_TRX]));
    expect(requests).toHaveLength(2);
  });

  it('sees an entry added (and one removed) once the version is read again: within the minute the cached answer holds', async () => {
    const { list, requests, clock } = countedList();
    const address = toChecksumAddress(`0x${'5a'.repeat(20)}`);
    expect(await list.listed('polygon', [address])).toEqual(new Set());

    await addStageEntry(store, { network: 'ethereum', address, reason: 'Court order 123/2026', actor: 'tester@test' });
    expect(await list.listed('polygon', [address])).toEqual(new Set());
    expect(requests).toHaveLength(1);

    clock.ms += VERSION_CHECK_MS;
    // The version moved: the cache is dropped and the address read again under the new one.
    expect(await list.listed('polygon', [address])).toEqual(new Set([address]));
    expect(requests.slice(1).map(({ keys }) => keys)).toEqual([['SCREENING/LIST'], [`SCREENING#polygon/ADDRESS#${address}`]]);

    await removeStageEntry(store, { network: 'polygon', address, reason: 'Order lifted', actor: 'tester@test' });
    clock.ms += VERSION_CHECK_MS;
    expect(await list.listed('polygon', [address])).toEqual(new Set());
  });

  it("lists a stage's entry on a network added since (the others listed already), and removes it from all once one lacks it", async () => {
    const address = toChecksumAddress(`0x${'6b'.repeat(20)}`);
    // Listed by hand while the stage had three EVM networks; a fourth came after.
    const earlier = [{ network: 'ethereum', address }, { network: 'bsc', address }, { network: 'polygon', address }] as const;
    await store.addStage([...earlier], { reason: 'Court order 7/2026', addedBy: 'tester@test', addedAt: new Date().toISOString() }, operatorAuditEntry('screening.added', 'tester@test', address, {}, new Date()));
    expect(await store.entry('arbitrum', address)).toBeNull();

    expect(await addStageEntry(store, { network: 'ethereum', address, reason: 'Court order 7/2026', actor: 'tester@test' })).toEqual({ outcome: 'added', networks: ['arbitrum'] });
    for (const network of ['ethereum', 'bsc', 'polygon', 'arbitrum'] as const) expect(await store.entry(network, address), network).toMatchObject({ stage: expect.anything() });
    expect((await addStageEntry(store, { network: 'ethereum', address, reason: 'again', actor: 'tester@test' })).outcome).toBe('listed');

    // Gone from one network by hand: removing it still removes the rest.
    await store.removeStage([{ network: 'bsc', address }], operatorAuditEntry('screening.removed', 'tester@test', address, {}, new Date()));
    expect((await removeStageEntry(store, { network: 'ethereum', address, reason: 'Order lifted', actor: 'tester@test' })).outcome).toBe('removed');
    for (const network of ['ethereum', 'bsc', 'polygon', 'arbitrum'] as const) expect((await store.entry(network, address))?.stage ?? null, network).toBeNull();
  });

  it('reads afresh when asked (a payout about to be signed): every address given, with the version, in one request, so an entry added within the minute is seen', async () => {
    const { list, requests } = countedList();
    const address = toChecksumAddress(`0x${'6b'.repeat(20)}`);
    expect(await list.listed('bsc', [address, UNLISTED])).toEqual(new Set());

    await addStageEntry(store, { network: 'bsc', address, reason: 'Listed while a payout waited', actor: 'tester@test' });
    expect(await list.listed('bsc', [address])).toEqual(new Set());
    expect(await list.listed('bsc', [address.toLowerCase(), UNLISTED], { fresh: true })).toEqual(new Set([address.toLowerCase()]));
    expect(requests.slice(1)).toEqual([{ command: 'BatchGetCommand', keys: ['SCREENING/LIST', `SCREENING#bsc/ADDRESS#${address}`, `SCREENING#bsc/ADDRESS#${UNLISTED}`] }]);
    // What it read is the container's answer from then on.
    expect(await list.listed('bsc', [address])).toEqual(new Set([address]));
    expect(requests).toHaveLength(2);
  });

  it('answers an address that is none of the network’s as not listed, without a read', async () => {
    const { list, requests } = countedList();
    expect(await list.listed('ethereum', [SANCTIONED_TRX, 'not an address'])).toEqual(new Set());
    expect(await list.listed('tron', [SANCTIONED_ETH])).toEqual(new Set());
    // The version only (nothing cached yet): no entry key.
    expect(requests.flatMap(({ keys }) => keys).filter((key) => key !== 'SCREENING/LIST')).toEqual([]);
  });

  it('lists an OFAC "ETH" address on every EVM network, and a TRX one on tron alone', async () => {
    const { list } = countedList();
    for (const network of ['ethereum', 'bsc', 'polygon', 'arbitrum'] as const) expect(await list.listed(network, [lower]), network).toEqual(new Set([lower]));
    expect(await list.listed('tron', [SANCTIONED_TRX])).toEqual(new Set([SANCTIONED_TRX]));
  });
});

describe('the lookups of a list never loaded (a new stage before its first import)', () => {
  it('throw ScreeningListNotLoaded, whatever the address, reading the version item each time; and answer as soon as the list is loaded', async () => {
    const { list, requests } = countedList(unloaded);
    await addStageEntry(new DynamoScreeningStore(unloaded.db, unloaded.tableName), { network: 'tron', address: SANCTIONED_TRX, reason: 'A stage entry is not OFAC\'s list', actor: 'tester@test' });

    await expect(list.listed('tron', [SANCTIONED_TRX])).rejects.toThrow(ScreeningListNotLoaded);
    await expect(list.listed('ethereum', [UNLISTED])).rejects.toThrow(ScreeningListNotLoaded);
    await expect(list.listed('ethereum', [UNLISTED])).rejects.toThrow(ScreeningListNotLoaded);
    expect(requests.map(({ keys }) => keys)).toEqual([['SCREENING/LIST', `SCREENING#tron/ADDRESS#${SANCTIONED_TRX}`], ['SCREENING/LIST', `SCREENING#ethereum/ADDRESS#${UNLISTED}`], ['SCREENING/LIST']]);

    await loadDefaultScreeningLists(unloaded.endpoint, unloaded.tableName);
    expect(await list.listed('ethereum', [UNLISTED, lower])).toEqual(new Set([lower]));
    expect(await list.listed('tron', [SANCTIONED_TRX])).toEqual(new Set([SANCTIONED_TRX]));
  });
});
