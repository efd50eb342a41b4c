import { readFile } from 'node:fs/promises';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ScanResult } from '#functions/deposits/deposit-scan';
import { createCompany } from '#functions/companies/company';
import { depositAwaitingPayment } from '#functions/deposits/deposits';
import type { NetworkName } from '#functions/networks/names';
import { newId } from '#functions/shared/ids';
import { inParallel } from '#functions/shared/in-parallel';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { depositAddressItem, depositAddressListedItem } from '#adapters/dynamo/items/deposit-address';
import { depositItem } from '#adapters/dynamo/items/deposit';
import { cpuMicrosOfPid, dynamoRequestsSince, snapshotDynamoRequests } from './harness.ts';
import type { ResultTable } from './scenario.ts';
import { startOwnDynamo, type OwnDynamo } from './own-dynamo.ts';
import { formatRate, operationName } from './support.ts';

/**
 * What the deposit scanner scenarios (TRON's scenarios/scanner.ts, the EVM one
 * scenarios/evm-scanner.ts, Solana's scenarios/solana-scanner.ts) share: a DynamoDB Local of their own seeded with registered deposit
 * addresses, and the timing and request counting of scan runs.
 */

const DAY_MS = 86_400_000;
const BATCH_WRITE_LIMIT = 25;
/** DynamoDB Local on 2 cores: 8 BatchWrites at a time was the fastest of 2, 4, 8 and 16 tried. */
export const SETUP_CONCURRENCY = 8;

export interface ScannerDynamo extends OwnDynamo {
  /** DynamoDB Local's process, for its CPU time (Linux). */
  dynamoPid: number | undefined;
}

/**
 * Its own DynamoDB Local (in memory) and table (./own-dynamo.ts): on one that already holds the
 * HTTP scenarios' items, requests to a second table were 2–30× slower (BatchWrite ~100 items/s
 * instead of ~2,000–3,000), a DynamoDB Local artefact that would have measured the emulator, not the
 * scanner.
 */
async function startScannerDynamo(tableName: string, log: (line: string) => void): Promise<ScannerDynamo> {
  log('  starting a DynamoDB Local of its own (in memory)');
  const dynamo = await startOwnDynamo(tableName);
  return { ...dynamo, dynamoPid: await pidOfDynamoDbLocal(dynamo.port) };
}

export interface DepositAddressSeed {
  /** How many of them are paid: spread evenly, each with a Deposit awaiting payment. */
  hits: number;
  /** The scenario's clock (ms): the company starts then, its addresses were made over the day before. */
  clock: number;
  address: (index: number) => string;
  /** The paid deposits' network, and the confirmations they wait for on it. Their references are
   * the table's name and the address's index. */
  network: NetworkName;
  requiredConfirmations: number;
}

export interface SeededAddresses {
  /** The paid addresses, in index order. */
  hitAddresses: string[];
  items: number;
  requests: number;
  seconds: number;
}

export interface ScannerBench {
  scanner: ScannerDynamo;
  /** BENCH_SCANNER_ADDRESSES (registeredAddresses). */
  registered: number;
  seeded: SeededAddresses;
}

/**
 * A deposit scanner scenario's start: its DynamoDB Local (startScannerDynamo), a company, and that
 * company's registered deposit addresses (seedDepositAddresses). The DynamoDB Local is stopped again if the rest fails;
 * once this returns, stopping it is the scenario's.
 */
export async function startScannerBench(tableName: string, companyName: string, seed: DepositAddressSeed, log: (line: string) => void): Promise<ScannerBench> {
  const registered = registeredAddresses();
  const scanner = await startScannerDynamo(tableName, log);
  try {
    const { company } = await createCompany(new DynamoCompanyStore(scanner.db, scanner.tableName), { name: companyName, environment: 'sandbox' }, new Date(seed.clock));
    const seeded = await seedDepositAddresses(scanner, company.id, registered, seed, log);
    return { scanner, registered, seeded };
  } catch (error) {
    await scanner.stop();
    throw error;
  }
}

/** Writes the registered addresses (DepositAddress and DepositAddressListed items) and Deposit
 * items for the paid ones. */
async function seedDepositAddresses(scanner: ScannerDynamo, companyId: string, registered: number, seed: DepositAddressSeed, log: (line: string) => void): Promise<SeededAddresses> {
  const { hits, clock } = seed;
  if (hits > registered) throw new Error(`BENCH_SCANNER_ADDRESSES must be at least ${hits}`);
  const stride = Math.floor(registered / hits);
  const hitAddresses: string[] = [];
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < registered; i++) {
    const address = seed.address(i);
    const depositId = newId('deposit', clock);
    // Made over the day before (not all at the run's start, which would put every one inside
    // the filter's refresh margin and have each refresh read them all again).
    const listed = { address, addressIndex: i, companyId, id: depositId, createdAt: new Date(clock - DAY_MS + Math.floor((i * DAY_MS) / registered) - 3_600_000).toISOString() };
    items.push(depositAddressItem.toItem(listed), depositAddressListedItem.toItem(listed));
    if (i % stride === 0 && hitAddresses.length < hits) {
      hitAddresses.push(address);
      const deposit = depositAwaitingPayment(companyId, { network: seed.network, reference: `${scanner.tableName}-${i}` }, { address, addressIndex: i }, seed.requiredConfirmations, new Date(clock), depositId);
      items.push(depositItem.toItem(deposit));
    }
  }
  log(`  writing ${registered} deposit addresses + ${hits} deposits (BatchWrite, ${BATCH_WRITE_LIMIT} per request, ${SETUP_CONCURRENCY} at a time)`);
  const started = performance.now();
  const requests = await batchWrite(scanner.db, scanner.tableName, items);
  return { hitAddresses, items: items.length, requests, seconds: (performance.now() - started) / 1000 };
}

export interface TimedScans {
  runs: number;
  transfersSeen: number;
  recorded: number;
  seconds: number;
  requests: Record<string, number>;
  /** This process's CPU time (the scanner and the SDK) during the runs. */
  cpuMicros: number;
  dynamoCpuMicros: number | null;
}

/** Runs `scan` (scanDeposits, or a whole poll around it) until it has scanned up to `upTo`, timing
 * the runs and counting their requests. */
export async function timedScans(scan: () => Promise<ScanResult>, upTo: number, dynamoPid: number | undefined): Promise<TimedScans> {
  const before = snapshotDynamoRequests();
  const dynamoBefore = await cpuMicrosOfPid(dynamoPid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let runs = 0;
  let transfersSeen = 0;
  let recorded = 0;
  for (;;) {
    const result = await scan();
    if (!result.scanned) break;
    runs++;
    transfersSeen += result.transfersSeen;
    recorded += result.recorded;
    if (result.scanned.toBlock >= upTo) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const dynamoAfter = await cpuMicrosOfPid(dynamoPid);
  return {
    runs,
    transfersSeen,
    recorded,
    seconds,
    requests: dynamoRequestsSince(before),
    cpuMicros: used.user + used.system,
    dynamoCpuMicros: dynamoBefore !== null && dynamoAfter !== null ? dynamoAfter - dynamoBefore : null,
  };
}

/** All DynamoDB requests of a pass. */
export const totalRequests = (result: TimedScans) => Object.values(result.requests).reduce((sum, n) => sum + n, 0);

/** The throughput table's columns for what pollPassCells gives, after the pass's label. */
export const POLL_PASS_COLUMNS = ['poll runs', 'transfers read', 'recorded', 'credited', 'seconds'];

/** A pass of polls (scan, then confirm) in the throughput table: its runs, the transfers they read
 * and recorded, the deposits they credited, and how long they took. */
export const pollPassCells = (pass: { result: TimedScans; credited: number }) => [pass.result.runs, pass.result.transfersSeen, pass.result.recorded, pass.credited, pass.result.seconds.toFixed(2)];

/** CPU time in seconds for a table, or 'n/a' where it could not be read (a process's, off Linux). */
export const cpuSeconds = (micros: number | null) => (micros === null ? 'n/a' : (micros / 1e6).toFixed(2));

/** The passes' DynamoDB requests by operation, each divided by `blocks`. */
export function requestsPerBlockTable(blocks: number, phases: { label: string; result: TimedScans }[]): ResultTable {
  const operations = [...new Set(phases.flatMap((phase) => Object.keys(phase.result.requests)))].sort();
  return {
    title: `DynamoDB requests per loaded block (÷ ${blocks})`,
    columns: ['pass', ...operations.map(operationName), 'total'],
    rows: phases.map(({ label, result }) => [
      label,
      ...operations.map((operation) => formatRate((result.requests[operation] ?? 0) / blocks)),
      formatRate(totalRequests(result) / blocks),
    ]),
  };
}

/** Puts every item with BatchWrite (25 per request, several requests at a time), retrying
 * unprocessed items; returns the number of requests sent. */
async function batchWrite(db: DynamoDBDocumentClient, tableName: string, items: Record<string, unknown>[]): Promise<number> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_LIMIT) batches.push(items.slice(i, i + BATCH_WRITE_LIMIT));
  let requests = 0;
  await inParallel(batches, SETUP_CONCURRENCY, async (batch) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
      requests++;
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  });
  return requests;
}

/** The java process listening on `port` (Linux /proc), for its CPU time: a grandchild of this
 * process, under the shell that stops it with its parent (local/dynamodb-local.ts). */
async function pidOfDynamoDbLocal(port: number, parent = process.pid): Promise<number | undefined> {
  try {
    const children = (await readFile(`/proc/${parent}/task/${parent}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    for (const pid of children) {
      const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (!args.some((arg) => arg.includes('DynamoDBLocal')) || !args.includes(String(port))) continue;
      return (await pidOfDynamoDbLocal(port, pid)) ?? (args[0]?.endsWith('java') ? pid : undefined);
    }
  } catch {
    // not Linux
  }
  return undefined;
}

/** BENCH_SCANNER_ADDRESSES: the registered deposit addresses (100,000 unless set). */
function registeredAddresses(fallback = 100_000): number {
  const raw = process.env.BENCH_SCANNER_ADDRESSES;
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_SCANNER_ADDRESSES must be a positive integer, got "${raw}"`);
  return value;
}
