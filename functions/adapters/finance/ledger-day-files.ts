import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ledgerEntryFromExportLine } from '#adapters/dynamo/items/ledger-entry';
import { DayPostings, dayEndedBy, daysOwedBy, ledgerDayKey, type LedgerDay } from '#functions/ledger/ledger-csv';

/**
 * The daily ledger files in S3 (README, Finance): a completed DynamoDB export of the table
 * (`manifest-summary.json`, `manifest-files.json`, `data/*.json.gz`) read as streams, gunzipped
 * and split into lines, each line turned into a ledger entry by the record's owner
 * (functions/adapters/dynamo/items/ledger-entry.ts), and the chosen days' postings written to
 * `ledger/YYYY/MM/DD.csv` through lib-storage's multipart Upload. Memory holds only those days'
 * rows (functions/ledger/ledger-csv.ts DayPostings), never the export.
 */

/** What DynamoDB's manifest-summary.json says of an export (the fields this reads). */
export interface ExportSummary {
  exportTime: Date;
  itemCount: number;
  manifestFilesKey: string;
}

export interface WrittenDay {
  day: LedgerDay;
  key: string;
  postings: number;
}

export interface LedgerFilesRun {
  summaryKey: string;
  exportTime: string;
  written: WrittenDay[];
  /** Catch-up days whose file already existed. */
  present: LedgerDay[];
}

/** Upload parts of 8 MiB, two in flight: about 16 MiB of buffers whatever the file's size. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export async function readExportSummary(s3: S3Client, bucket: string, summaryKey: string): Promise<ExportSummary> {
  const summary = JSON.parse(await readText(s3, bucket, summaryKey)) as {
    exportTime?: string;
    itemCount?: number;
    manifestFilesS3Key?: string;
    outputFormat?: string;
  };
  if (summary.outputFormat !== undefined && summary.outputFormat !== 'DYNAMODB_JSON') {
    throw new Error(`${summaryKey}: the export is ${summary.outputFormat}; the ledger files read DYNAMODB_JSON exports`);
  }
  const exportTime = new Date(summary.exportTime ?? '');
  if (Number.isNaN(exportTime.getTime()) || typeof summary.itemCount !== 'number' || !summary.manifestFilesS3Key) {
    throw new Error(`${summaryKey} is not a DynamoDB export summary (exportTime, itemCount and manifestFilesS3Key are required)`);
  }
  return { exportTime, itemCount: summary.itemCount, manifestFilesKey: summary.manifestFilesS3Key };
}

/**
 * Writes the ledger files an export owes (functions/ledger/ledger-csv.ts daysOwedBy): the last day
 * it covers, always, and the catch-up days that have no file yet; or exactly `days` when given (a
 * re-run by hand), each of which must have ended before the export was taken. Nothing is written
 * unless the export's data holds the item count its summary promises.
 */
export async function writeLedgerFiles(s3: S3Client, bucket: string, summaryKey: string, days?: readonly LedgerDay[]): Promise<LedgerFilesRun> {
  const summary = await readExportSummary(s3, bucket, summaryKey);
  let chosen: LedgerDay[];
  const present: LedgerDay[] = [];
  if (days) {
    const open = days.filter((day) => !dayEndedBy(day, summary.exportTime));
    if (open.length > 0) throw new Error(`The export of ${summary.exportTime.toISOString()} was taken before the end of ${open.join(', ')}: use a later export`);
    chosen = [...new Set(days)];
  } else {
    const owed = daysOwedBy(summary.exportTime);
    chosen = [owed.due];
    for (const day of owed.catchUp) (await fileExists(s3, bucket, ledgerDayKey(day)) ? present : chosen).push(day);
  }

  const postings = new DayPostings(chosen);
  let items = 0;
  for (const dataKey of await dataFileKeys(s3, bucket, summary.manifestFilesKey)) {
    for await (const line of gzipLines(s3, bucket, dataKey)) {
      if (line.trim() === '') continue;
      items += 1;
      const entry = ledgerEntryFromExportLine(line);
      if (entry) postings.add(entry);
    }
  }
  if (items !== summary.itemCount) {
    throw new Error(`${summaryKey} counts ${summary.itemCount} items but its data files hold ${items}: the export is incomplete, no file was written`);
  }

  const written: WrittenDay[] = [];
  for (const day of chosen.sort()) {
    const key = ledgerDayKey(day);
    await uploadLines(s3, bucket, key, postings.file(day));
    written.push({ day, key, postings: postings.count(day) });
    postings.release(day);
  }
  return { summaryKey, exportTime: summary.exportTime.toISOString(), written, present: present.sort() };
}

/** manifest-files.json: one JSON object a line, each naming a data file (`dataFileS3Key`). */
async function dataFileKeys(s3: S3Client, bucket: string, manifestFilesKey: string): Promise<string[]> {
  const keys: string[] = [];
  for (const line of (await readText(s3, bucket, manifestFilesKey)).split('\n')) {
    if (line.trim() === '') continue;
    const { dataFileS3Key } = JSON.parse(line) as { dataFileS3Key?: string };
    if (!dataFileS3Key) throw new Error(`${manifestFilesKey} has a line without dataFileS3Key`);
    keys.push(dataFileS3Key);
  }
  // A stable order, though the files' order changes nothing in the output (each day is sorted).
  return keys.sort();
}

async function* gzipLines(s3: S3Client, bucket: string, key: string): AsyncGenerator<string> {
  const body = await objectBody(s3, bucket, key);
  yield* createInterface({ input: body.pipe(createGunzip()), crlfDelay: Infinity });
}

async function objectBody(s3: S3Client, bucket: string, key: string): Promise<Readable> {
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!(answer.Body instanceof Readable)) throw new Error(`s3://${bucket}/${key} has no readable body`);
  return answer.Body;
}

async function readText(s3: S3Client, bucket: string, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await objectBody(s3, bucket, key)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

async function fileExists(s3: S3Client, bucket: string, key: string): Promise<boolean> {
  const answer = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key, MaxKeys: 1 }));
  return (answer.Contents ?? []).some((object) => object.Key === key);
}

/** Lines joined into chunks of about 64 KiB: one Buffer a line would cost more than the line. */
function* chunksOf(lines: Iterable<string>): Generator<Buffer> {
  let pending = '';
  for (const line of lines) {
    pending += line;
    if (pending.length >= 64 * 1024) {
      yield Buffer.from(pending, 'utf8');
      pending = '';
    }
  }
  if (pending !== '') yield Buffer.from(pending, 'utf8');
}

async function uploadLines(s3: S3Client, bucket: string, key: string, lines: Iterable<string>): Promise<void> {
  const body = Readable.from(chunksOf(lines));
  const upload = new Upload({
    client: s3,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: 'text/csv; charset=utf-8' },
    partSize: PART_SIZE,
    queueSize: PARTS_IN_FLIGHT,
  });
  await upload.done();
}
