import { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeLedgerFiles } from '#adapters/finance/ledger-day-files';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { createCompany } from '#functions/companies/company';
import { ApiError } from '#functions/shared/errors';
import { EXTERNAL_ACCOUNTS, networkAccount, companyAccount, ledgerEntry, type LedgerEntry, type Posting } from '#functions/ledger/ledger';
import type { NetworkName } from '#functions/networks/names';
import { parseAmount, type Currency } from '#functions/shared/money';
import { freshTable } from '../support/dynamo.ts';
import { exportLayout, scanTable, type ExportItem } from '../support/table-export.ts';

/**
 * The daily ledger job's core (functions/adapters/finance/ledger-day-files.ts) on a real export:
 * ledger entries written by the real stores on DynamoDB Local at chosen times around a UTC
 * midnight, the table scanned and laid out as DynamoDB's export writes it, served from a mocked S3
 * (there is no local S3 engine), and the CSV files it uploads compared byte for byte.
 */
const BUCKET = 'cambio-test-exports';
const HEADER = 'entryId,createdAt,companyId,reference,source,destination,asset,amount,network\n';

const s3Mock = mockClient(S3Client);
const s3 = new S3Client({ region: 'us-east-1' });
/** The bucket: every object by key. */
const objects = new Map<string, Buffer>();
let env: Awaited<ReturnType<typeof freshTable>>;
let companyId: string;
const entries: Record<string, LedgerEntry> = {};

async function record(name: string, at: string, reference: string, postings: [string, string, Currency, string][], network?: NetworkName): Promise<void> {
  const moves: Posting[] = postings.map(([source, destination, currency, amount]) => ({ source, destination, currency, amount: parseAmount(amount, currency) }));
  const entry = ledgerEntry(companyId, reference, moves, new Date(at), network);
  await new MoneyTransaction(env.tableName).ledger(entry, () => new ApiError('INTERNAL_ERROR', 'unreachable')).commit(env.db);
  entries[name] = entry;
}

/** Scans the table and puts its export in the bucket, as of `exportTime`; returns the summary's key. */
async function exportTable(exportTime: string, exportId: string): Promise<string> {
  const layout = exportLayout(await scanTable(env.endpoint, env.tableName), { exportTime: new Date(exportTime), exportId, dataFiles: 3 });
  for (const [name, bytes] of layout.files) objects.set(layout.folderKey + name, bytes);
  return `${layout.folderKey}manifest-summary.json`;
}

const file = (day: string) => objects.get(`ledger/${day.replace(/-/g, '/')}.csv`)?.toString('utf8');
const uploadedKeys = () => s3Mock.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);

beforeAll(async () => {
  env = await freshTable();
  companyId = (await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Ledger days', environment: 'sandbox' })).company.id;
  const available = companyAccount(companyId, 'available');
  const locked = companyAccount(companyId, 'locked');
  // Entries written before they stored their network (none given) are TRON's deposits and withdrawals.
  await record('lastOf19', '2026-11-19T23:59:59.999Z', 'deposit:dep_1', [[networkAccount('tron'), available, 'USDT', '250.5']]);
  await record('firstOf20', '2026-11-20T00:00:00.000Z', 'deposit:dep_2', [[networkAccount('ethereum'), available, 'USDT', '0.000001']], 'ethereum');
  await record('hold', '2026-11-20T08:00:00.000Z', 'withdrawal:wdr_1:hold', [
    [available, locked, 'USDT', '100.25'],
    [available, locked, 'USDT', '1'],
  ]);
  await record('formula', '2026-11-20T12:00:00.000Z', '=HYPERLINK("http://evil.example","x"),1', [[EXTERNAL_ACCOUNTS.conversionDesk, available, 'BRL', '54']]);
  await record('firstOf21', '2026-11-21T00:00:00.000Z', 'deposit:dep_3', [[networkAccount('tron'), available, 'USDT', '3']]);
});

beforeEach(() => {
  s3Mock.reset();
  s3Mock.on(GetObjectCommand).callsFake(({ Key }: { Key: string }) => {
    const bytes = objects.get(Key);
    if (!bytes) throw Object.assign(new Error(`NoSuchKey ${Key}`), { name: 'NoSuchKey' });
    return { Body: Readable.from(bytes) };
  });
  s3Mock.on(PutObjectCommand).callsFake(async ({ Key, Body }: { Key: string; Body: Uint8Array | string }) => {
    objects.set(Key, Buffer.from(Body));
    return {};
  });
  s3Mock.on(ListObjectsV2Command).callsFake(({ Prefix }: { Prefix: string }) => ({
    Contents: [...objects.keys()].filter((key) => key.startsWith(Prefix)).map((Key) => ({ Key })),
  }));
});

afterAll(() => s3Mock.restore());

describe('the daily ledger files from a table export', () => {
  it("writes the last ended day's postings, oldest first, with exact decimal strings and guarded formulas", async () => {
    const summaryKey = await exportTable('2026-11-21T03:00:05.000Z', '01763694005000-aaaaaaaa');

    const run = await writeLedgerFiles(s3, BUCKET, summaryKey);

    const { firstOf20, hold, formula } = entries as Record<string, LedgerEntry>;
    const row = (entry: LedgerEntry, reference: string, source: string, destination: string, asset: string, amount: string, network: string) =>
      `${entry.id},${entry.createdAt},${companyId},${reference},${source},${destination},${asset},${amount},${network}\n`;
    const available = companyAccount(companyId, 'available');
    const locked = companyAccount(companyId, 'locked');
    expect(file('2026-11-20')).toBe(
      HEADER +
        row(firstOf20!, 'deposit:dep_2', 'external:ethereum', available, 'USDT', '0.000001', 'ethereum') +
        row(hold!, 'withdrawal:wdr_1:hold', available, locked, 'USDT', '100.250000', 'tron') +
        row(hold!, 'withdrawal:wdr_1:hold', available, locked, 'USDT', '1.000000', 'tron') +
        // A conversion moves nothing on a network.
        row(formula!, `"'=HYPERLINK(""http://evil.example"",""x""),1"`, 'treasury:conversion_desk', available, 'BRL', '54.00', ''),
    );
    expect(run.written.find((day) => day.day === '2026-11-20')).toEqual({ day: '2026-11-20', key: 'ledger/2026/11/20.csv', postings: 4 });
  });

  it('keeps each entry in the UTC day it was created: 23:59:59.999 is the day before, 00:00:00.000 the day after', () => {
    const { lastOf19, firstOf21 } = entries as Record<string, LedgerEntry>;

    expect(file('2026-11-19')).toBe(HEADER + `${lastOf19!.id},2026-11-19T23:59:59.999Z,${companyId},deposit:dep_1,external:tron,${companyAccount(companyId, 'available')},USDT,250.500000,tron\n`);
    expect(file('2026-11-20')).not.toContain(lastOf19!.id);
    expect(file('2026-11-20')).not.toContain(firstOf21!.id);
    // The export was taken before the 21st ended: no file for it yet.
    expect(file('2026-11-21')).toBeUndefined();
  });

  it("fills in the week before that had no file (a day whose own export failed), header only for a day without entries", () => {
    for (const day of ['2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18']) expect(file(day), day).toBe(HEADER);
    expect(file('2026-11-12')).toBeUndefined();
  });

  it('rewrites the same bytes when run again on the same export, and leaves the catch-up days it finds alone', async () => {
    const before = file('2026-11-20');
    const summaryKey = 'exports/AWSDynamoDB/01763694005000-aaaaaaaa/manifest-summary.json';

    const run = await writeLedgerFiles(s3, BUCKET, summaryKey);

    expect(file('2026-11-20')).toBe(before);
    expect(uploadedKeys()).toEqual(['ledger/2026/11/20.csv']);
    expect(run.present).toEqual(['2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']);
  });

  it("gives a day the same bytes from a later export (a re-run by hand), and the next export writes the next day", async () => {
    const before = file('2026-11-20');
    await record('lateOn22', '2026-11-22T01:00:00.000Z', 'deposit:dep_4', [[networkAccount('tron'), companyAccount(companyId, 'available'), 'USDT', '7']]);
    const later = await exportTable('2026-11-22T03:00:04.000Z', '01763780404000-bbbbbbbb');

    await writeLedgerFiles(s3, BUCKET, later, ['2026-11-20']);
    expect(file('2026-11-20')).toBe(before);
    expect(uploadedKeys()).toEqual(['ledger/2026/11/20.csv']);

    await writeLedgerFiles(s3, BUCKET, later);
    expect(file('2026-11-21')).toBe(HEADER + `${entries.firstOf21!.id},2026-11-21T00:00:00.000Z,${companyId},deposit:dep_3,external:tron,${companyAccount(companyId, 'available')},USDT,3.000000,tron\n`);
  });

  it('refuses to write a day the export was taken before the end of', async () => {
    const summaryKey = 'exports/AWSDynamoDB/01763780404000-bbbbbbbb/manifest-summary.json';

    await expect(writeLedgerFiles(s3, BUCKET, summaryKey, ['2026-11-22'])).rejects.toThrow(/taken before the end of 2026-11-22/);
    expect(uploadedKeys()).toEqual([]);
  });

  it('writes nothing from an export whose data files hold fewer items than its summary counts', async () => {
    const items: ExportItem[] = await scanTable(env.endpoint, env.tableName);
    const layout = exportLayout(items.slice(1), { exportTime: new Date('2026-11-23T03:00:00.000Z'), exportId: '01763866800000-cccccccc' });
    const summary = JSON.parse(layout.files.get('manifest-summary.json')!.toString()) as Record<string, unknown>;
    layout.files.set('manifest-summary.json', Buffer.from(JSON.stringify({ ...summary, itemCount: items.length })));
    for (const [name, bytes] of layout.files) objects.set(layout.folderKey + name, bytes);

    await expect(writeLedgerFiles(s3, BUCKET, `${layout.folderKey}manifest-summary.json`)).rejects.toThrow(/export is incomplete, no file was written/);
    expect(uploadedKeys()).toEqual([]);
    expect(file('2026-11-22')).toBeUndefined();
  });
});

describe('the ledger job handler', () => {
  it("runs on EventBridge's Object Created event for an export summary, and refuses any other key", async () => {
    process.env.LEDGER_BUCKET = BUCKET;
    process.env.AWS_REGION ??= 'us-east-1';
    process.env.STAGE ??= 'sandbox';
    const { handler } = await import('../../functions/handlers/jobs/ledger-day-csv.ts');
    const event = (key: string) => ({ source: 'aws.s3', 'detail-type': 'Object Created', detail: { bucket: { name: BUCKET }, object: { key } } });
    const context = { awsRequestId: 'test-request' } as never;

    const run = await handler(event('exports/AWSDynamoDB/01763780404000-bbbbbbbb/manifest-summary.json') as never, context);

    expect(run.written.map((day) => day.key)).toEqual(['ledger/2026/11/21.csv']);
    await expect(handler(event('exports/AWSDynamoDB/01763780404000-bbbbbbbb/data/part-0.json.gz') as never, context)).rejects.toThrow(/Not an export summary/);
    await expect(handler({ summaryKey: 'exports/AWSDynamoDB/01763780404000-bbbbbbbb/manifest-summary.json', days: ['2026-13-01'] } as never, context)).rejects.toThrow(/YYYY-MM-DD/);
  });
});
