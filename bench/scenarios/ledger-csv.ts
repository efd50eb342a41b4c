import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { companyAccount, ledgerEntry } from '#functions/ledger/ledger';
import { mib } from '../harness.ts';
import type { ResultTable, Scenario } from '../scenario.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_DAY = Date.parse('2026-01-01T00:00:00.000Z');
const DATA_FILES = 4;
const CHILD = fileURLToPath(new URL('../ledger-csv-child.ts', import.meta.url));

interface ChildRun {
  seconds: number;
  maxRss: number;
  peakHeap: number;
  uploaded: number;
  written: { day: string; key: string; postings: number }[];
}

function measure(folder: string, summaryKey: string, maxOldSpaceMiB?: number): ChildRun {
  const heapCap = maxOldSpaceMiB ? [`--max-old-space-size=${maxOldSpaceMiB}`] : [];
  const out = execFileSync(process.execPath, [...heapCap, '--import', 'tsx', CHILD, folder, summaryKey], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'WARN' } });
  return JSON.parse(out.trim().split('\n').pop()!) as ChildRun;
}

interface Run {
  label: string;
  entries: number;
  days: number;
  /** --max-old-space-size for the run's process: a run that completes under it held no more. */
  maxOldSpaceMiB?: number;
  /** Items of other kinds the export holds beside each entry: a stage's table is mostly deposits,
   * addresses, events and deliveries, which the job reads and passes over. */
  othersPerEntry?: number;
}

/**
 * The daily ledger job's core (functions/adapters/finance/ledger-day-files.ts) over large exports:
 * synthetic ledger entries (two postings each, as a withdrawal's hold) written as DynamoDB's export
 * writes them (gzipped DynamoDB JSON, 4 data files, manifests) to a temporary folder, served by a
 * mocked S3 that streams each file from disk and counts the uploaded bytes, so what is measured is
 * the job's own reading, parsing, sorting and writing, each run in a child process whose peak RSS
 * is its own. The claim: peak memory follows the day being written, not the export's size.
 */
export const ledgerCsvScenario: Scenario = {
  name: 'ledger-csv',
  title: 'Daily ledger CSV: a table export streamed into one day\'s file',
  async run({ log }) {
    const entries = Number(process.env.BENCH_LEDGER_ENTRIES ?? 200_000);
    const runs: Run[] = [
      { label: 'export ¼, 2,000 entries a day', entries: entries / 4, days: entries / 4 / 2000 },
      { label: 'full export, 2,000 entries a day', entries, days: entries / 2000 },
      { label: 'export ×4, 2,000 entries a day', entries: entries * 4, days: (entries * 4) / 2000 },
      { label: 'export ×4, 2,000 a day, old space capped at 48 MiB', entries: entries * 4, days: (entries * 4) / 2000, maxOldSpaceMiB: 48 },
      { label: 'full export, 20,000 entries a day', entries, days: entries / 20_000 },
      { label: 'full export among 6 other items an entry', entries, days: entries / 2000, othersPerEntry: 6 },
    ];
    const table: ResultTable = {
      title: 'Ledger CSV job: one day written from a whole-table export (each run a process of its own)',
      columns: ['run', 'entries in export', 'items in export', 'gzipped export', 'postings in the day', 'CSV written', 'seconds', 'items/s', 'peak RSS', 'peak heap'],
      rows: [],
    };
    const failures: string[] = [];
    let idle: ChildRun | null = null;
    for (const run of runs) {
      const folder = mkdtempSync(join(tmpdir(), 'cambio-bench-export-'));
      try {
        log(`  ${run.label}: writing ${run.entries} entries over ${run.days} days`);
        const { summaryKey, bytes, exportTime } = await writeSyntheticExport(folder, run);
        idle ??= measure(folder, '--idle');
        const result = measure(folder, summaryKey, run.maxOldSpaceMiB);
        const day = result.written[0];
        const expected = 2 * (run.entries / run.days);
        if (result.written.length !== 1 || day?.postings !== expected) failures.push(`${run.label}: wrote ${JSON.stringify(result.written)}, expected one day of ${expected} postings`);
        log(`    ${day?.key}: ${day?.postings} postings from an export of ${exportTime} in ${result.seconds.toFixed(1)} s, peak RSS ${mib(result.maxRss)}`);
        table.rows.push([run.label, run.entries, run.entries * (1 + (run.othersPerEntry ?? 0)), mib(bytes), day?.postings ?? 0, mib(result.uploaded), result.seconds.toFixed(1), Math.round((run.entries * (1 + (run.othersPerEntry ?? 0))) / result.seconds), mib(result.maxRss), mib(result.peakHeap)]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    if (idle) table.rows.unshift(['the same process, modules loaded, no run', 0, 0, '', 0, '', '', '', mib(idle.maxRss), mib(idle.peakHeap)]);
    return {
      name: 'ledger-csv',
      title: this.title,
      summaries: [],
      tables: [table],
      failures,
      notes: [
        'Each run writes the last day before the export time; the catch-up days are reported present (the steady state), so one day is written.',
        'Each run is a process of its own (bench/ledger-csv-child.ts): peak RSS is its maxRSS, peak heap sampled every 10 ms; the first row is that process loading its modules and doing nothing. The export is read from disk as a stream, as S3 would serve it.',
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
    const lines = [JSON.stringify({ Item: marshall(ledgerEntryItem.toItem(entry)) })];
    for (let other = 0; other < (run.othersPerEntry ?? 0); other += 1) lines.push(JSON.stringify({ Item: marshall(otherItem(companyId, index, other, at)) }));
    target.lines += lines.length;
    if (!target.gzip.write(lines.join('\n') + '\n')) await new Promise((resolve) => target.gzip.once('drain', resolve));
  }
  let bytes = 0;
  for (const { gzip, out } of gzips) {
    gzip.end();
    await finished(out);
    bytes += out.bytesWritten;
  }
  const exportTime = new Date(FIRST_DAY + run.days * DAY_MS + 3 * 60 * 60 * 1000).toISOString();
  writeFileSync(join(folder, 'manifest-files.json'), gzips.map((file, part) => JSON.stringify({ itemCount: file.lines, dataFileS3Key: `${folderKey}data/part-${part}.json.gz` })).join('\n') + '\n');
  writeFileSync(join(folder, 'manifest-summary.json'), JSON.stringify({ exportTime, itemCount: gzips.reduce((total, file) => total + file.lines, 0), manifestFilesS3Key: `${folderKey}manifest-files.json`, outputFormat: 'DYNAMODB_JSON' }));
  return { summaryKey: `${folderKey}manifest-summary.json`, bytes, exportTime };
}

/** An item of another kind, about an entry's size, as a deposit's event is: the job must pass it over. */
function otherItem(companyId: string, index: number, other: number, at: Date): Record<string, unknown> {
  return {
    PK: `COMPANY#${companyId}`,
    SK: `EVENT#evt_${index}_${other}`,
    type: 'Event',
    id: `evt_${index}_${other}`,
    kind: 'deposit.completed',
    data: { id: `dep_${index}`, amount: '100.25', network: 'tron', reference: `order-${index}`, address: 'TJYeasTPa6gpEEfYqMYv3y5GMrdHyKzhZm', status: 'completed' },
    createdAt: at.toISOString(),
  };
}
