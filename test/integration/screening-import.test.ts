import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { operatorAuditEntryItem } from '#adapters/dynamo/items/operator-audit-entry';
import { screeningEntryItem } from '#adapters/dynamo/items/screening';
import { itemsUnder, readItem } from '#adapters/dynamo/queries';
import { DynamoScreeningList, DynamoScreeningStore, ScreeningCache } from '#adapters/dynamo/screening-store';
import type { ScreeningEntry } from '#functions/screening/screening';
import { addStageEntry, importScreeningFile, readScreeningFile } from '#functions/screening/screening-import';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { EVM_NETWORK_NAMES, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { ensureTable } from '#local/dynamodb-local';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * `npm run screening:import`, `screening:add` and `screening:remove` (ops/) as an operator runs
 * them against a deployed stage's table (`--stage sandbox --table …`), pointed at this run's
 * DynamoDB Local: OFAC's sdn_advanced.xml (a small one in OFAC's schema, test/fixtures/screening/)
 * and plain lists imported, counted and idempotent; a stage's own entries added and removed with
 * an operator audit entry each; bad usage refused with exit 2. The tables here start empty (no
 * shipped snapshot), so every count is the file's.
 */
const endpoint = inject('dynamoEndpoint');
const db = createDocumentClient(endpoint);
const FIXTURE = join(import.meta.dirname, '../fixtures/screening/sdn_advanced.xml');
const TRX_LIST = join(import.meta.dirname, '../../config/screening/sanctioned_TRX.txt');
const folder = mkdtempSync(join(tmpdir(), 'cambio-screening-'));
afterAll(() => {
  db.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** An empty table of its own. */
async function bareTable(): Promise<string> {
  const tableName = `test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  return tableName;
}

const run = (script: string, tableName: string | null, args: string[]) =>
  runOpsCommand(script, [...args, ...(tableName ? ['--stage', 'sandbox', '--table', tableName] : [])], { DYNAMODB_ENDPOINT: endpoint });
const screeningImport = (tableName: string | null, ...args: string[]) => run('ops/screening-import.ts', tableName, args);
const screeningEntry = (tableName: string | null, ...args: string[]) => run('ops/screening-entry.ts', tableName, args);

const entries = async (tableName: string): Promise<Record<NetworkName, ScreeningEntry[]>> =>
  Object.fromEntries(await Promise.all(NETWORK_NAMES.map(async (network) => [network, await new DynamoScreeningStore(db, tableName).entriesOf(network)] as const))) as Record<NetworkName, ScreeningEntry[]>;
const audits = async (tableName: string) => (await itemsUnder(db, tableName, operatorAuditEntryItem.all())).map(operatorAuditEntryItem.fromItem);
const listed = (tableName: string, network: (typeof NETWORK_NAMES)[number], address: string) =>
  new DynamoScreeningList(db, tableName, { cache: new ScreeningCache() }).listed(network, [address]).then((found) => found.size > 0);

const ETH = ['0x8589427373D6D84E98730D7795D8f6f8731FDA16', '0x722122dF12D4e14e13Ac3b6895a86e84145b6967', '0xd90e2f925DA726b50C4Ed8D0Fb90Ad053324F31b', '0x910Cbd523D972eb0a6f4cAe4618aD62622b39DbF'];
const TRX = 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg';
const USDT_ON_TRON = 'TA82wQ77kb9DieW4C8q7C4KwMfnCzfziqN';

describe("OFAC's sdn_advanced.xml", () => {
  let tableName: string;
  beforeAll(async () => {
    tableName = await bareTable();
  });

  it('is imported: ETH, ARB and USDT 0x… addresses on every EVM network, TRX and USDT T… on tron, other assets counted and left out, invalid addresses reported and never stored', async () => {
    const imported = await screeningImport(tableName, '--file', FIXTURE);

    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('Imported sdn_advanced.xml (OFAC SDN advanced XML, issued 2026-03-02): 18 entries added, 0 updated, 0 delisted, 0 unchanged');
    expect(imported.stdout).toContain('Ignored (assets Cambio does not screen): XBT 2, XMR 1.');
    expect(imported.stdout).toContain('Skipped 2 invalid, not stored:');
    expect(imported.stdout).toContain('party 990001 (ETH): "0x1234"');
    expect(imported.stdout).toContain('party 990002 (TRX): "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh"');

    const stored = await entries(tableName);
    expect(stored.tron.map(({ address, ofac }) => [address, ofac?.assets]).sort()).toEqual([
      [TRX, ['TRX']],
      [USDT_ON_TRON, ['USDT']],
    ]);
    for (const network of EVM_NETWORK_NAMES) {
      expect(stored[network].map(({ address }) => address).sort(), network).toEqual([...ETH].sort());
      // Listed under ETH and under ARB: one entry with both.
      expect(stored[network].find(({ address }) => address === ETH[2])?.ofac?.assets).toEqual(['ARB', 'ETH']);
      expect(stored[network].every(({ stage }) => stage === null)).toBe(true);
    }
    const state = await new DynamoScreeningStore(db, tableName).state();
    expect(state).toMatchObject({ ofacFrom: 'sdn_advanced.xml', ofacIssuedOn: '2026-03-02', ofacEntries: { tron: 2, ethereum: 4, bsc: 4, polygon: 4, arbitrum: 4 }, importStartedAt: null });
    expect(state.ofacSyncedAt).toEqual(expect.any(String));
    expect(await audits(tableName)).toEqual([
      expect.objectContaining({ action: 'screening.imported', actor: expect.stringContaining('@'), target: 'sdn_advanced.xml', details: expect.objectContaining({ format: 'sdn_advanced', added: '18', removed: '0' }) }),
    ]);
    expect(await readItem(db, tableName, screeningEntryItem.key('tron', 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh'))).toBeNull();
    // Any letter case of a listed EVM address is the entry.
    expect(await listed(tableName, 'arbitrum', ETH[0]!.toLowerCase())).toBe(true);
  });

  it('imported again writes no entry and leaves the version alone: only its time of import moves', async () => {
    const before = await new DynamoScreeningStore(db, tableName).state();
    const stored = await entries(tableName);

    const again = await screeningImport(tableName, '--file', FIXTURE);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('0 entries added, 0 updated, 0 delisted, 18 unchanged');
    expect(again.stdout).toContain('Nothing changed: the list held it already.');

    const after = await new DynamoScreeningStore(db, tableName).state();
    expect(after.version).toBe(before.version);
    expect(after.ofacSyncedAt! > before.ofacSyncedAt!).toBe(true);
    expect(await entries(tableName)).toEqual(stored);
    expect(await audits(tableName)).toHaveLength(1);
  });

  it('delists what the next file no longer names, but refuses a file that would delist most of the list unless told it is right', async () => {
    // OFAC's TRON list beside the fixture: 182 more on tron (2 of its addresses the fixture has).
    expect((await screeningImport(tableName, '--file', TRX_LIST)).stdout).toContain('182 entries added, 0 updated, 0 delisted, 2 unchanged');
    const version = (await new DynamoScreeningStore(db, tableName).state()).version;
    const dropped = readFileSync(TRX_LIST, 'utf8').split('\n').map((line) => line.trim()).find((line) => line !== '' && line !== TRX && line !== USDT_ON_TRON)!;

    const refused = await screeningImport(tableName, '--file', FIXTURE);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("Not imported, nothing written: The file would delist 182 of OFAC's 200 entries: it may not be the whole SDN list. If OFAC did delist them, import it again with --allow-shrink.");
    expect((await new DynamoScreeningStore(db, tableName).state()).version).toBe(version);
    expect(await listed(tableName, 'tron', dropped)).toBe(true);

    const shrunk = await screeningImport(tableName, '--file', FIXTURE, '--allow-shrink');
    expect(shrunk.status).toBe(0);
    expect(shrunk.stdout).toContain('0 entries added, 0 updated, 182 delisted, 18 unchanged');
    expect(await listed(tableName, 'tron', dropped)).toBe(false);
    expect(await listed(tableName, 'tron', TRX)).toBe(true);
    // Delisted, not deleted: the item says when.
    expect(await readItem(db, tableName, screeningEntryItem.key('tron', dropped))).toMatchObject({ ofacDelistedAt: expect.any(String) });
    expect(await readItem(db, tableName, screeningEntryItem.key('tron', dropped))).not.toHaveProperty('ofac');
  });
  it('refuses a copy issued before the list it holds, which would delist what OFAC listed since, unless told it is the list to hold', async () => {
    const older = join(folder, 'sdn_advanced_older.xml');
    writeFileSync(older, readFileSync(FIXTURE, 'utf8').replace('<Month>3</Month>', '<Month>2</Month>').replace(/<DistinctParty FixedRef="\d+">(?:(?!<\/DistinctParty>)[\s\S])*?TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg[\s\S]*?<\/DistinctParty>/, ''));
    const before = await new DynamoScreeningStore(db, tableName).state();

    const refused = await screeningImport(tableName, '--file', older);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("Not imported, nothing written: The file was issued on 2026-02-02, before the list now held (issued on 2026-03-02): an older copy of OFAC's list would delist what OFAC listed since. If it is the list to hold, import it again with --allow-older.");
    expect(await new DynamoScreeningStore(db, tableName).state()).toEqual(before);
    expect(await listed(tableName, 'tron', TRX)).toBe(true);

    const allowed = await screeningImport(tableName, '--file', older, '--allow-older');
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain('0 entries added, 0 updated, 2 delisted, 16 unchanged');
    expect(await listed(tableName, 'tron', TRX)).toBe(false);
    expect((await new DynamoScreeningStore(db, tableName).state()).ofacIssuedOn).toBe('2026-02-02');
  });
});

describe('a plain list', () => {
  it('is imported one address a line (blank lines and comments skipped), `--network` refusing another network’s addresses; invalid lines are reported and skipped; again, it writes nothing', async () => {
    const tableName = await bareTable();
    const file = join(folder, 'mixed.txt');
    writeFileSync(file, [`# OFAC's TRON addresses, by hand`, TRX, '', `   ${USDT_ON_TRON}   `, 'TNotAnAddressAtAll', `${ETH[1]!.toLowerCase()}  # an ETH one`, '0x12345', ''].join('\n'));

    const tronOnly = await screeningImport(tableName, '--file', file, '--network', 'tron');
    expect(tronOnly.status).toBe(0);
    expect(tronOnly.stdout).toContain('Imported mixed.txt (plain list): 2 entries added, 0 updated, 0 delisted, 0 unchanged');
    expect(tronOnly.stdout).toContain('Skipped 3 invalid, not stored:');
    expect(tronOnly.stdout).toContain(`line 6: "${ETH[1]!.toLowerCase()}" (not a TRON address)`);

    const byForm = await screeningImport(tableName, '--file', file);
    expect(byForm.stdout).toContain('4 entries added, 0 updated, 0 delisted, 2 unchanged');
    expect(byForm.stdout).toContain('Skipped 2 invalid, not stored:');
    expect(byForm.stdout).toContain('line 5: "TNotAnAddressAtAll"');
    expect(byForm.stdout).toContain('line 7: "0x12345"');
    const stored = await entries(tableName);
    expect(stored.tron.map(({ address }) => address).sort()).toEqual([TRX, USDT_ON_TRON]);
    // The lower-case line is stored in EIP-55, on every EVM network; a plain list names no asset.
    for (const network of EVM_NETWORK_NAMES) expect(stored[network].map(({ address, ofac }) => [address, ofac?.assets])).toEqual([[toChecksumAddress(ETH[1]!), []]]);
    // A plain list is a part of OFAC's list: it never sets the list's age.
    expect((await new DynamoScreeningStore(db, tableName).state()).ofacSyncedAt).toBeNull();

    const version = (await new DynamoScreeningStore(db, tableName).state()).version;
    expect((await screeningImport(tableName, '--file', file)).stdout).toContain('0 entries added, 0 updated, 0 delisted, 6 unchanged');
    expect((await new DynamoScreeningStore(db, tableName).state()).version).toBe(version);
  });
});

describe("a stage's own entries", () => {
  const address = toChecksumAddress(`0x${'3c'.repeat(20)}`);
  let tableName: string;
  beforeAll(async () => {
    tableName = await bareTable();
    await screeningImport(tableName, '--file', FIXTURE);
  });

  it('are added on every network the address is one of, with who, when and why in an operator audit entry; adding again writes nothing', async () => {
    const added = await screeningEntry(tableName, 'add', '--network', 'bsc', '--address', address.toLowerCase(), '--reason', 'Court order 42/2026');
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain(`Listed ${address.toLowerCase()} on ethereum, bsc, polygon, arbitrum (the stage's entry: Court order 42/2026).`);

    for (const network of EVM_NETWORK_NAMES) {
      expect((await entries(tableName))[network].find((entry) => entry.address === address), network).toEqual({
        network,
        address,
        ofac: null,
        stage: { reason: 'Court order 42/2026', addedBy: expect.stringContaining('@'), addedAt: expect.any(String) },
      });
      expect(await listed(tableName, network, address.toUpperCase().replace('0X', '0x'))).toBe(true);
    }
    const [, added1] = await audits(tableName);
    expect(added1).toMatchObject({ action: 'screening.added', actor: expect.stringContaining('@'), target: address, details: { network: 'bsc', networks: 'ethereum,bsc,polygon,arbitrum', reason: 'Court order 42/2026' } });

    const again = await screeningEntry(tableName, 'add', '--network', 'ethereum', '--address', address, '--reason', 'Court order 42/2026');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("Already the stage's entry on ethereum, bsc, polygon, arbitrum: nothing written.");
    expect(await audits(tableName)).toHaveLength(2);
  });

  it("are removed, audited; OFAC's cannot be, and nothing is written", async () => {
    const removed = await screeningEntry(tableName, 'remove', '--network', 'polygon', '--address', address, '--reason', 'Order lifted');
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain(`Removed the stage's entry for ${address}.`);
    for (const network of EVM_NETWORK_NAMES) expect(await listed(tableName, network, address), network).toBe(false);
    expect((await audits(tableName)).at(-1)).toMatchObject({ action: 'screening.removed', target: address, details: { network: 'polygon', reason: 'Order lifted' } });

    const count = (await audits(tableName)).length;
    const ofac = await screeningEntry(tableName, 'remove', '--network', 'tron', '--address', TRX, '--reason', 'Mistake?');
    expect(ofac.status).toBe(2);
    expect(ofac.stderr).toContain(`${TRX} is on OFAC's list, not a stage entry: a stage cannot remove OFAC's entries. Nothing written.`);
    expect(await listed(tableName, 'tron', TRX)).toBe(true);
    const gone = await screeningEntry(tableName, 'remove', '--network', 'polygon', '--address', address, '--reason', 'Twice');
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain('is not a stage entry on polygon: nothing written.');
    expect(await audits(tableName)).toHaveLength(count);
  });
});

describe('a stage entry added while an import writes', () => {
  it("keeps its stage part when OFAC lists the same address in that moment, so OFAC's later delisting leaves it listed", async () => {
    const tableName = await bareTable();
    const address = 'TXmVpin5vq5gdZsciyyjdZgKRUju4st1wM';
    // The operator's `screening:add` lands between the import's read of the list and its writes.
    class OperatorBetween extends DynamoScreeningStore {
      override async beginImport(at: string): Promise<void> {
        await addStageEntry(new DynamoScreeningStore(db, tableName), { network: 'tron', address, reason: 'Court order 9/2026', actor: 'ops@cambio.example' });
        await super.beginImport(at);
      }
    }
    const listing = await readScreeningFile(Readable.from([`${address}\n${USDT_ON_TRON}\n`]), { network: 'tron' });
    await importScreeningFile(new OperatorBetween(db, tableName), listing, { from: 'test', actor: 'ops@cambio.example' });

    const entry = await new DynamoScreeningStore(db, tableName).entry('tron', address);
    expect(entry).toMatchObject({ ofac: { assets: [] }, stage: { reason: 'Court order 9/2026' } });
    expect(await new DynamoScreeningStore(db, tableName).entry('tron', USDT_ON_TRON)).toMatchObject({ ofac: { assets: [] }, stage: null });

    // OFAC's whole list without it: delisted by OFAC, still the stage's.
    await screeningImport(tableName, '--file', FIXTURE, '--allow-shrink');
    expect(await listed(tableName, 'tron', address)).toBe(true);
  });
});

describe.concurrent('bad usage', () => {
  it.each([
    ['no file', 'ops/screening-import.ts', [], '--file is needed'],
    ['a file that is not there', 'ops/screening-import.ts', ['--file', join(folder, 'absent.xml')], 'no such file'],
    ['an unknown network', 'ops/screening-import.ts', ['--file', FIXTURE, '--network', 'dogecoin'], 'Unknown network "dogecoin"'],
    ['--network with the SDN file', 'ops/screening-import.ts', ['--file', FIXTURE, '--network', 'tron'], '--network is for a plain list'],
    ['an unknown option', 'ops/screening-import.ts', ['--file', FIXTURE, '--force'], "Unknown option '--force'"],
    ['add without a reason', 'ops/screening-entry.ts', ['add', '--network', 'tron', '--address', TRX], '--reason is needed'],
    ['add of another network’s address', 'ops/screening-entry.ts', ['add', '--network', 'ethereum', '--address', TRX, '--reason', 'x'], 'is not an address of ethereum'],
    ['a deployed stage without its table', 'ops/screening-entry.ts', ['remove', '--network', 'tron', '--address', TRX, '--reason', 'x', '--stage', 'production'], '--stage production needs --table'],
    ['neither add nor remove', 'ops/screening-entry.ts', ['list'], 'Run it as npm run screening:add or npm run screening:remove'],
  ])('%s: a message and the usage, exit 2', async (_, script, args, message) => {
    const refused = await run(script, null, args as string[]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(message);
    expect(refused.stderr).toContain('Usage: npm run screening:');
    expect(refused.stdout).toBe('');
  });
});
