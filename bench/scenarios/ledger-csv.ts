import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { writeLedgerFiles } from '#adapters/finance/ledger-day-files';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { companyAccount, ledgerEntry } from '#domain/ledger';
import { mib } from '../harness.ts';
import type { ResultTable, Scenario } from '../scenario.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_DAY = Date.parse('2026-01-01T00:00:00.000Z');
const DATA_FILES = 4;
const BUCKET = 'bench-exports';

interface Run {
  label: string;
  entries: number;
  days: number;
}

/**
 * The daily ledger job's core (functions/adapters/finance/ledger-day-files.ts) over large exports:
 * synthetic ledger entries (two postings each, as a withdrawal's hold) written as DynamoDB's export
 * writes them (gzipped DynamoDB JSON, 4 data files, manifests) to a temporary folder, served by a
 * mocked S3 that streams each file from disk and counts the uploaded bytes, so what is measured is
 * the job's own reading, parsing, sorting and writing. Memory is sampled every 10 ms during each
 * run, after a GC. The claim: peak memory follows the day being written, not the export's size.
 */
export const ledgerCsvScenario: Scenario = {
  name: 'ledger-csv',
  title: 'Daily ledger CSV: a table export streamed into one day\'s file',
  async run({ log }) {
    const entries = Number(process.env.BENCH_LEDGER_ENTRIES ?? 200_000);
    const runs: Run[] = [
      { label: 'export ¼, 2,000 entries a day', entries: entries / 4, days: entries / 4 / 2000 },
      { label: 'full export, 2,000 entries a day', entries, days: entries / 2000 },
      { label: 'full export, 20,000 entries a day', entries, days: entries / 20_000 },
    ];
    const s3Mock = mockClient(S3Client);
    const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
    const table: ResultTable = {
      title: 'Ledger CSV job: one day written from a whole-table export',
      columns: ['run', 'entries in export', 'gzipped export', 'postings in the day', 'CSV bytes', 'seconds', 'entries/s', 'peak RSS over baseline', 'peak heap over baseline'],
      rows: [],
    };
    const failures: string[] = [];
    try {
      for (const run of runs) {
        const folder = mkdtempSync(join(tmpdir(), 'cambio-bench-export-'));
        try {
          log(`  ${run.label}: writing ${run.entries} entries over ${run.days} days`);
          const { summaryKey, bytes, exportTime } = await writeSyntheticExport(folder, run);
          let uploaded = 0;
          serveFrom(s3Mock, folder, (size) => (uploaded += size));
          globalThis.gc?.();
          const baseline = process.memoryUsage();
          const peak = { rss: baseline.rss, heap: baseline.heapUsed };
          const sampler = setInterval(() => {
            const now = process.memoryUsage();
            peak.rss = Math.max(peak.rss, now.rss);
            peak.heap = Math.max(peak.heap, now.heapUsed);
          }, 10);
          const started = performance.now();
          const result = await writeLedgerFiles(s3, BUCKET, summaryKey);
          const seconds = (performance.now() - started) / 1000;
          clearInterval(sampler);
          const day = result.written[0]!;
          const expected = 2 * (run.entries / run.days);
          if (result.written.length !== 1 || day.postings !== expected) failures.push(`${run.label}: wrote ${JSON.stringify(result.written)}, expected one day of ${expected} postings`);
          log(`    ${day.key}: ${day.postings} postings from an export of ${exportTime} in ${seconds.toFixed(1)} s`);
          table.rows.push([
            run.label,
            run.entries,
            mib(bytes),
            day.postings,
            mib(uploaded),
            seconds.toFixed(1),
            Math.round(run.entries / seconds),
            mib(peak.rss - baseline.rss),
            mib(peak.heap - baseline.heapUsed),
          ]);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      }
    } finally {
      s3Mock.restore();
    }
    return {
      name: 'ledger-csv',
      title: this.title,
      summaries: [],
      tables: [table],
      failures,
      notes: [
        'Each run writes the last day before the export time; the catch-up days are reported present (the steady state), so one day is written.',
        'Peak memory is sampled every 10 ms in the bench process (after a GC) and given over the baseline before the run; the export is read from disk as a stream, as S3 would serve it.',
      ],
    };
  },
};

/** The export's files on disk, laid out as ExportTableToPointInTime writes them; gzip streams, so the bench holds no export either. */
async function writeSyntheticExport(folder: string, run: Run): Promise<{ summaryKey: string; bytes: number; exportTime: string }> {
  const folderKey = 'exports/AWSDynamoDB/01700000000000-bench000/';
  const gzips = Array.from({ length: DATA_FILES }, (_, part) => {
    const gzip = createGzip();
    const out = createWriteStream(join(folder, `part-${part}.json.gz`));
    gzip.pipe(out);
    return { gzip, out, lines: 0 };
  });
  const perDay = run.entries / run.days;
  for (let index = 0; index < run.entries; index += 1) {
    const companyId = `cmp_BENCH${String(index % 50).padStart(4, '0')}`;
    const at = new Date(FIRST_DAY + Math.floor(index / perDay) * DAY_MS + ((index * 7919) % DAY_MS));
    const entry = ledgerEntry(companyId, `withdrawal:wdr_${index}:hold`, [
      { source: companyAccount(companyId, 'available'), destination: companyAccount(companyId, 'locked'), currency: 'USDT', amount: 100_250_000n + BigInt(index) },
      { source: companyAccount(companyId, 'available'), destination: companyAccount(companyId, 'locked'), currency: 'USDT', amount: 1_000_000n },
    ], at);
    const target = gzips[index % DATA_FILES]!;
    target.lines += 1;
    if (!target.gzip.write(JSON.stringify({ Item: marshall(ledgerEntryItem.toItem(entry)) }) + '\n')) await new Promise((resolve) => target.gzip.once('drain', resolve));
  }
  let bytes = 0;
  for (const { gzip, out } of gzips) {
    gzip.end();
    await finished(out);
    bytes += out.bytesWritten;
  }
  const exportTime = new Date(FIRST_DAY + run.days * DAY_MS + 3 * 60 * 60 * 1000).toISOString();
  writeFileSync(join(folder, 'manifest-files.json'), gzips.map((file, part) => JSON.stringify({ itemCount: file.lines, dataFileS3Key: `${folderKey}data/part-${part}.json.gz` })).join('\n') + '\n');
  writeFileSync(join(folder, 'manifest-summary.json'), JSON.stringify({ exportTime, itemCount: run.entries, manifestFilesS3Key: `${folderKey}manifest-files.json`, outputFormat: 'DYNAMODB_JSON' }));
  return { summaryKey: `${folderKey}manifest-summary.json`, bytes, exportTime };
}

/** GetObject streams the file from disk; uploads are consumed and counted, nothing kept. */
function serveFrom(s3Mock: ReturnType<typeof mockClient>, folder: string, uploaded: (bytes: number) => void): void {
  const size = async (body: unknown) => {
    if (body instanceof Uint8Array || typeof body === 'string') return Buffer.byteLength(body);
    let total = 0;
    for await (const chunk of body as Readable) total += (chunk as Buffer).length;
    return total;
  };
  s3Mock.reset();
  s3Mock.on(GetObjectCommand).callsFake(({ Key }: { Key: string }) => ({ Body: createReadStream(join(folder, Key.split('/').pop()!)) }));
  s3Mock.on(ListObjectsV2Command).callsFake(({ Prefix }: { Prefix: string }) => ({ Contents: [{ Key: Prefix }] }));
  s3Mock.on(PutObjectCommand).callsFake(async ({ Body }: { Body: unknown }) => (uploaded(await size(Body)), {}));
  s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'bench' });
  s3Mock.on(UploadPartCommand).callsFake(async ({ Body }: { Body: unknown }) => (uploaded(await size(Body)), { ETag: 'etag' }));
  s3Mock.on(CompleteMultipartUploadCommand).resolves({});
}
