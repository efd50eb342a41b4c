import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { writeLedgerFiles } from '#adapters/finance/ledger-day-files';

/**
 * One run of the ledger job's core in a process of its own (bench/scenarios/ledger-csv.ts), so its
 * peak RSS is the job's and not what the bench made before: `<export folder> <summary key>`, or
 * `<export folder> --idle` for the same process that only loads the modules. S3 is mocked: each
 * GetObject streams the file from the folder, uploads are consumed and counted. Prints one JSON line.
 */
const [folder, summaryKey] = process.argv.slice(2) as [string, string];
const s3Mock = mockClient(S3Client);
const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
let uploaded = 0;
const consume = async (body: unknown) => {
  if (body instanceof Uint8Array || typeof body === 'string') uploaded += Buffer.byteLength(body);
  else for await (const chunk of body as Readable) uploaded += (chunk as Buffer).length;
};
s3Mock.on(GetObjectCommand).callsFake(({ Key }: { Key: string }) => ({ Body: createReadStream(join(folder, Key.split('/').pop()!)) }));
// Every catch-up day already has its file (the steady state): one day is written.
s3Mock.on(ListObjectsV2Command).callsFake(({ Prefix }: { Prefix: string }) => ({ Contents: [{ Key: Prefix }] }));
s3Mock.on(PutObjectCommand).callsFake(async ({ Body }: { Body: unknown }) => (await consume(Body), {}));
s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'bench' });
s3Mock.on(UploadPartCommand).callsFake(async ({ Body }: { Body: unknown }) => (await consume(Body), { ETag: 'etag' }));
s3Mock.on(CompleteMultipartUploadCommand).resolves({});

let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 10);
const started = performance.now();
const run = summaryKey === '--idle' ? null : await writeLedgerFiles(s3, 'bench-exports', summaryKey);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// maxRSS is in KiB: the process's peak resident memory, whatever sampling would miss.
console.log(JSON.stringify({ seconds, maxRss: process.resourceUsage().maxRSS * 1024, peakHeap, uploaded, written: run?.written ?? [] }));
