import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { balanceItem } from '#adapters/dynamo/items/balance';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { inParallel } from '#functions/shared/in-parallel';
import { companyAccount, networkAccount, ledgerEntry } from '#functions/ledger/ledger';
import type { LocalRuntime } from '#local/runtime';
import { STATEMENT_COLUMNS } from '#functions/companies/statement';
import { encodeTime } from 'ulid';
import type { Scenario } from '../scenario.ts';
import { signUp } from './activity.ts';

const DAY_MS = 86_400_000;
/** A year of entries: BENCH_STATEMENT_ENTRIES, default 50,000 (~140 a day). */
const ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 50_000);
/** The download's function has 5 minutes (lib/dashboard.ts); the goal keeps a year well inside it. */
const YEAR_GOAL_SECONDS = 60;
const BATCH_WRITE_LIMIT = 25;
const SEED_CONCURRENCY = 8;

/**
 * Overview's `Download statement` for a whole year of a busy company: ENTRIES ledger entries of
 * 1 USDT credited over the last 365 days, then the one streamed answer of GET …/statement for that
 * year, read as it arrives through the local runtime (its HTTP server, session authorizer and the
 * download function, in this process). The statement reads the entries twice (the opening balance
 * is today's less every change since `from`, then the period's lines), so this is its worst case.
 * Measured: time, lines, this process's heap growth (streamed, never held whole); checked: the
 * opening is 0 and the closing the sum of the entries.
 */
export const statementScenario: Scenario = {
  name: 'statement',
  title: `Download statement: a year of ${ENTRIES.toLocaleString('en')} ledger entries, streamed`,
  async run({ runtime, log }) {
    const session = await signUp(runtime);
    log(`statement: seeding ${ENTRIES} ledger entries`);
    const seedStarted = performance.now();
    await seedYear(runtime, session.companyId);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10);

    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    const response = await fetch(`${session.origin}/dashboard/api/companies/${session.companyId}/statement?from=${from}&to=${today}`, { headers: { Cookie: session.cookie } });
    let bytes = 0;
    let text = '';
    let lines = 0;
    let last = '';
    for await (const piece of response.body!.pipeThrough(new TextDecoderStream())) {
      bytes += Buffer.byteLength(piece);
      // Keep only the unfinished line and the tail, never the whole file.
      text = last + piece;
      const split = text.split('\n');
      last = split.pop()!;
      lines += split.length;
      if (split.length) text = split.slice(-4).join('\n');
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const heapGrowthMiB = (heapPeak - heapBefore) / 1024 / 1024;

    const failures: string[] = [];
    if (response.status !== 200) failures.push(`statement: status ${response.status}`);
    // Header, an opening and a closing line per currency (USDT, BRL), a line per entry.
    if (lines !== ENTRIES + 5) failures.push(`statement: ${lines} lines, expected ${ENTRIES + 5}`);
    const closingUsdt = text.split('\n').find((line) => line.startsWith('closing') && line.includes(',USDT,'));
    // Read by the columns' names: the statement has gained columns since (network, last).
    const closing = Object.fromEntries(STATEMENT_COLUMNS.map((column, i) => [column, closingUsdt?.split(',')[i]]));
    if (closing.available !== `${ENTRIES}.000000` || closing.pending !== '0.000000' || closing.locked !== '0.000000') failures.push(`statement: closing line ${closingUsdt}`);
    log(`statement: ${lines} lines, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${seconds.toFixed(1)} s, heap +${heapGrowthMiB.toFixed(1)} MiB`);

    return {
      name: 'statement',
      title: this.title,
      summaries: [],
      tables: [
        {
          title: `GET …/statement for 365 days holding ${ENTRIES} entries (one streamed answer)`,
          columns: ['entries', 'lines', 'CSV size', 'time', 'entries read per second (twice each)', 'peak heap growth (API in this process)', 'seeding'],
          rows: [[ENTRIES, lines, `${(bytes / 1024 / 1024).toFixed(2)} MiB`, `${seconds.toFixed(2)} s`, Math.round((2 * ENTRIES) / seconds), `${heapGrowthMiB.toFixed(1)} MiB`, `${seedSeconds.toFixed(1)} s`]],
        },
      ],
      goals: [
        { goal: `A year of ${ENTRIES} entries in < ${YEAR_GOAL_SECONDS} s (the function has 300 s)`, met: seconds < YEAR_GOAL_SECONDS, detail: `${seconds.toFixed(1)} s` },
      ],
      failures,
      notes: [
        'DynamoDB Local on the same 2 cores serves every page of the two reads; in AWS each 1 MB page is a consistent Query of a few tens of milliseconds.',
        'Heap growth is sampled in a process that also runs the API and the runtime, so it includes garbage not yet collected; compare runs of different sizes (BENCH_STATEMENT_ENTRIES) to see it does not follow the file.',
      ],
    };
  },
};

/** ENTRIES entries of 1 USDT from the chain to the company's available balance, spread over the last
 * 365 days (ids by their time, as the ledger makes them), and the balance item they add up to. */
async function seedYear(runtime: LocalRuntime, companyId: string): Promise<void> {
  const db = createDocumentClient(runtime.dynamoEndpoint);
  const now = Date.now();
  try {
    const items = Array.from({ length: ENTRIES }, (_, i) => {
      const at = new Date(now - 365 * DAY_MS + 60_000 + Math.floor((i * (365 * DAY_MS - 120_000)) / ENTRIES));
      const posting = { source: networkAccount('tron'), destination: companyAccount(companyId, 'available'), currency: 'USDT' as const, amount: 1_000_000n };
      // The id made for its own time: newId's monotonic ULIDs never go back before this process's last.
      return ledgerEntryItem.toItem({ ...ledgerEntry(companyId, `bench:${i}`, [posting], at), id: `led_${encodeTime(at.getTime(), 10)}${String(i).padStart(16, '0')}` });
    });
    const batches = Array.from({ length: Math.ceil(items.length / BATCH_WRITE_LIMIT) }, (_, b) => items.slice(b * BATCH_WRITE_LIMIT, (b + 1) * BATCH_WRITE_LIMIT));
    await inParallel(batches, SEED_CONCURRENCY, async (batch) => {
      let unprocessed: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
      while (unprocessed?.length) {
        const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: unprocessed as never } }));
        unprocessed = UnprocessedItems?.[runtime.tableName] as Record<string, unknown>[] | undefined;
      }
    });
    const at = new Date(now).toISOString();
    await db.send(new PutCommand({ TableName: runtime.tableName, Item: balanceItem.toItem(companyId, { currency: 'USDT', available: BigInt(ENTRIES) * 1_000_000n, pending: 0n, locked: 0n, held: 0n, updatedAt: at }) }));
  } finally {
    db.destroy();
  }
}
