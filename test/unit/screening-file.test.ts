import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScreeningFile, ScreeningImportRefused, type ScreeningFile } from '#functions/screening/screening-import';

/**
 * Reading what `npm run screening:import` and the refresh job import (functions/screening/), no
 * table involved: OFAC's sdn_advanced.xml as it streams in, whatever the chunks' boundaries, and
 * plain lists. test/integration/screening-import.test.ts imports the same files into a table.
 */
const FIXTURE = readFileSync(join(import.meta.dirname, '../fixtures/screening/sdn_advanced.xml'), 'utf8');

async function* inChunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
const read = (text: string, options: Parameters<typeof readScreeningFile>[1] = {}, size = 4096) => readScreeningFile(inChunks(text, size), options);
const listed = (file: ScreeningFile) => [...file.addresses.values()].map(({ network, address, assets }) => `${network} ${address} ${assets.join('+')}`).sort();

describe("OFAC's sdn_advanced.xml", () => {
  it('gives the same addresses read a byte at a time as whole: the document streams through the parser', async () => {
    const whole = await read(FIXTURE, {}, FIXTURE.length);
    const byteByByte = await read(FIXTURE, {}, 1);
    expect(listed(byteByByte)).toEqual(listed(whole));
    expect(whole).toMatchObject({ format: 'sdn_advanced', complete: true, issuedOn: '2026-03-02', ignored: { XBT: 2, XMR: 1 } });
    expect(whole.addresses.size).toBe(18);
    expect(whole.invalid.map(({ value }) => value)).toEqual(['0x1234', 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh']);
  });

  it('matches elements by local name, under the older UN namespace or a prefix too', async () => {
    const un = FIXTURE.replace('xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML"', 'xmlns="http://www.un.org/sanctions/1.0"');
    const prefixed = FIXTURE.replace(/<(\/?)([A-Z][A-Za-z]*)/g, '<$1s:$2').replace('xmlns="https://', 'xmlns:s="https://');
    const expected = listed(await read(FIXTURE));
    expect(listed(await read(un))).toEqual(expected);
    expect(listed(await read(prefixed))).toEqual(expected);
  });

  it('refuses a document cut short, one that is not XML past its first tag, and XML naming no digital-currency feature', async () => {
    await expect(read(FIXTURE.slice(0, FIXTURE.length / 2))).rejects.toThrow(ScreeningImportRefused);
    await expect(read(FIXTURE.slice(0, FIXTURE.length / 2))).rejects.toThrow(/Not a well-formed XML document/);
    await expect(read('<Sanctions><DistinctParties></Sanctions>')).rejects.toThrow(/Not a well-formed XML document/);
    await expect(read(FIXTURE.replaceAll('Digital Currency Address - ', 'Digital Asset - '))).rejects.toThrow(/names no "Digital Currency Address - …" feature type/);
  });

  it('takes no --network: the file names each address’s asset', async () => {
    await expect(read(FIXTURE, { network: 'tron' })).rejects.toThrow(/--network is for a plain list/);
  });
});

describe('a plain list', () => {
  const TRX = 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg';
  const ETH = '0x722122dF12D4e14e13Ac3b6895a86e84145b6967';

  it('lists a T… address on tron and a 0x… address, in EIP-55 whatever its case, on every EVM network', async () => {
    const file = await read(`\uFEFF${TRX}\r\n${ETH.toLowerCase()}\r\n`);
    expect(file).toMatchObject({ format: 'plain', complete: false, issuedOn: null, invalid: [] });
    expect(listed(file)).toEqual([`arbitrum ${ETH} `, `bsc ${ETH} `, `ethereum ${ETH} `, `polygon ${ETH} `, `tron ${TRX} `]);
  });

  it('with --network, takes that network’s addresses alone and reports the others by line', async () => {
    const file = await read(['# mixed', TRX, ETH, 'nonsense'].join('\n'), { network: 'polygon' });
    expect(listed(file)).toEqual(['arbitrum', 'bsc', 'ethereum', 'polygon'].map((network) => `${network} ${ETH} `));
    expect(file.invalid).toEqual([
      { value: TRX, where: 'line 2', reason: 'not a Polygon PoS address' },
      { value: 'nonsense', where: 'line 4', reason: 'not a Polygon PoS address' },
    ]);
  });
});
