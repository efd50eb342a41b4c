import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import { createDocumentClient } from '#adapters/dynamo/client';
import { depositItem } from '#adapters/dynamo/items/deposit';
import type { Deposit } from '#functions/deposits/deposits';
import type { LocalRuntime } from '#local/runtime';
import { cookieHeader, signedUpOwner } from '../../test/support/dashboard.ts';
import { percentile } from '../harness.ts';
import type { Scenario } from '../scenario.ts';

const DEPOSITS = 10_000;
const LIST_CALLS = 200;
const LIST_P99_GOAL_MS = 150;
const LIGHTHOUSE_GOAL = 95;
/** Lighthouse is not a dependency (about 200 packages): `npm install --prefix /tmp/lh lighthouse`. */
const LIGHTHOUSE = process.env.LIGHTHOUSE_BIN ?? '/tmp/lh/node_modules/.bin/lighthouse';
const STATUSES: Deposit['status'][] = ['completed', 'completed', 'completed', 'expired', 'awaiting_payment', 'confirming'];

/**
 * The dashboard's Activity with 10,000 deposits in one company: the list's latency (first page,
 * a status filter, a date range), `Export CSV` of all 10,000 rows as the one streamed answer the
 * page's download gets (time, and this process's heap while the local runtime serves it: streamed,
 * never held whole), and Lighthouse on the Activity page when Lighthouse is installed.
 */
export const activityScenario: Scenario = {
  name: 'activity',
  title: 'Dashboard Activity: list p99 and Export CSV with 10,000 deposits, Lighthouse',
  async run({ runtime, log }) {
    const session = await signUp(runtime);
    log(`activity: seeding ${DEPOSITS} deposits`);
    await seedDeposits(runtime, session.companyId);
    const base = `${session.origin}/dashboard/api/companies/${session.companyId}/activity/deposits`;
    const get = (query: string) => fetch(`${base}${query}`, { headers: { Cookie: session.cookie } });

    const rows: (string | number)[][] = [];
    const goals: { goal: string; met: boolean; detail: string }[] = [];
    const failures: string[] = [];
    for (const [label, query] of [
      ['first page (25)', '?limit=25'],
      ['status completed (25)', '?limit=25&status=completed'],
      ['a 3-day range (25)', `?limit=25&from=${day(-20)}&to=${day(-18)}`],
    ] as const) {
      const times = new Float64Array(LIST_CALLS);
      for (let i = 0; i < LIST_CALLS; i++) {
        const started = performance.now();
        const response = await get(query);
        const body = (await response.json()) as { data: unknown[] };
        times[i] = performance.now() - started;
        if (response.status !== 200 || body.data.length !== 25) failures.push(`${label}: ${response.status}, ${body.data?.length} rows`);
      }
      times.sort();
      const p99 = percentile(times, 99);
      rows.push([label, LIST_CALLS, percentile(times, 50).toFixed(1), p99.toFixed(1)]);
      goals.push({ goal: `Activity list p99 < ${LIST_P99_GOAL_MS} ms, ${label}`, met: p99 < LIST_P99_GOAL_MS, detail: `${p99.toFixed(1)} ms` });
    }

    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    let bytes = 0;
    let lines = 0;
    let pieces = 0;
    // One streamed answer (functions/handlers/dashboard/export-activity.ts), read as it arrives.
    const response = await get('/export');
    if (response.status !== 200) failures.push(`Export CSV: status ${response.status}`);
    for await (const piece of response.body!.pipeThrough(new TextDecoderStream())) {
      bytes += Buffer.byteLength(piece);
      lines += piece.split('\n').length - 1;
      pieces++;
    }
    const exportMs = performance.now() - started;
    clearInterval(sampler);
    if (lines !== DEPOSITS + 1) failures.push(`Export CSV: ${lines} lines, expected ${DEPOSITS + 1}`);
    const exportTable = {
      title: `Export CSV of ${DEPOSITS} deposits (one streamed answer, read from the table 1,000 rows a round)`,
      columns: ['rows', 'pieces received', 'CSV size', 'time', 'peak heap growth (API in this process)'],
      rows: [[lines - 1, pieces, `${(bytes / 1024 / 1024).toFixed(2)} MiB`, `${(exportMs / 1000).toFixed(2)} s`, `${((heapPeak - heapBefore) / 1024 / 1024).toFixed(1)} MiB`]],
    };

    log(`activity: list ${JSON.stringify(rows)}; export ${JSON.stringify(exportTable.rows)}`);
    let lighthouse: Awaited<ReturnType<typeof runLighthouse>> = null;
    try {
      lighthouse = await runLighthouse(session, `${session.origin}/dashboard/activity/deposits`);
    } catch (error) {
      failures.push(String(error));
    }
    if (lighthouse) {
      goals.push({ goal: `Lighthouse performance, Activity ≥ ${LIGHTHOUSE_GOAL}`, met: lighthouse.performance >= LIGHTHOUSE_GOAL, detail: String(lighthouse.performance) });
      goals.push({ goal: `Lighthouse accessibility, Activity ≥ ${LIGHTHOUSE_GOAL}`, met: lighthouse.accessibility >= LIGHTHOUSE_GOAL, detail: String(lighthouse.accessibility) });
    }
    return {
      name: 'activity',
      title: this.title,
      summaries: [],
      tables: [{ title: `Activity list, ${DEPOSITS} deposits in one company, ${LIST_CALLS} calls each, one at a time`, columns: ['list', 'calls', 'p50 ms', 'p99 ms'], rows }, exportTable],
      goals,
      failures,
      notes: [
        'Through the local runtime (its HTTP server, session authorizer, membership read and the Query), cookies as the page sends them.',
        lighthouse ? `Lighthouse ${lighthouse.version}, default mobile profile with simulated throttling, Debian's Chromium, signed in, on /dashboard/activity/deposits.` : `Lighthouse not run: ${LIGHTHOUSE} is missing (npm install --prefix /tmp/lh lighthouse).`,
      ],
    };
  },
};

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A company's Owner, signed in (test/support/dashboard.ts): the cookies the page would send. */
export async function signUp(runtime: LocalRuntime): Promise<{ origin: string; cookie: string; companyId: string }> {
  const { browser, companyId } = await signedUpOwner(runtime, 'Bench Activity');
  return { origin: browser.origin, cookie: cookieHeader(browser.jar), companyId };
}

/** 10,000 deposits over the last 30 days, written by their owner (depositItem) in batches. */
async function seedDeposits(runtime: LocalRuntime, companyId: string): Promise<void> {
  const db = createDocumentClient(runtime.dynamoEndpoint);
  const now = Date.now();
  try {
    const items = Array.from({ length: DEPOSITS }, (_, i) => {
      const at = new Date(now - 30 * 86_400_000 + Math.floor((i * 30 * 86_400_000) / DEPOSITS));
      const deposit: Deposit = {
        id: `dep_${encodeTime(at.getTime(), 10)}${String(i).padStart(16, '0')}`,
        companyId,
        method: 'usdt',
        reference: `bench-order-${i}`,
        network: 'tron',
        address: 'TVWFLU6jVhtYemb8PkJW62jffPRDaN3zNQ',
        addressIndex: 0,
        expectedAmount: 10_000_000n,
        receivedAmount: 10_000_000n,
        creditedAmount: 10_000_000n,
        amountStatus: null,
        status: STATUSES[i % STATUSES.length]!,
        confirmations: 19,
        requiredConfirmations: 19,
        transactions: [],
        split: null,
        expiresAt: new Date(at.getTime() + 86_400_000).toISOString(),
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
        version: 0,
      };
      return depositItem.toItem(deposit);
    });
    for (let i = 0; i < items.length; i += 25) {
      await db.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
  } finally {
    db.destroy();
  }
}

/**
 * Asynchronous on purpose: the local runtime that serves the page runs in this process, so a
 * synchronous spawn would block the very server Lighthouse is loading the page from (the first
 * runs hung until their timeout that way).
 */
async function runLighthouse(session: { cookie: string }, url: string): Promise<{ performance: number; accessibility: number; version: string } | null> {
  if (!existsSync(LIGHTHOUSE)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cambio-lighthouse-'));
  try {
    const output = join(dir, 'report.json');
    try {
      await promisify(execFile)(
        LIGHTHOUSE,
        [url, '--only-categories=performance,accessibility', `--extra-headers=${JSON.stringify({ Cookie: session.cookie })}`, '--chrome-flags=--headless --no-sandbox --disable-gpu', '--output=json', `--output-path=${output}`, '--quiet'],
        { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, timeout: 400_000, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      throw new Error(`lighthouse failed: ${String((error as { stderr?: string }).stderr ?? error).slice(-500)}`);
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as { lighthouseVersion: string; categories: Record<string, { score: number }>; audits: Record<string, { displayValue?: string }> };
    return {
      performance: Math.round(report.categories.performance!.score * 100),
      accessibility: Math.round(report.categories.accessibility!.score * 100),
      version: report.lighthouseVersion,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
