import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { checkAllLedgers, eventIdsOf, undispatchedCount } from '../checks.ts';
import { mib, rssOfPid } from '../harness.ts';
import { startChainJobs, startWebhookLoops, type Loops } from '../loops.ts';
import { MixedGenerator, summariseMixed, type MixedCompany, type MixedResult } from '../mixed.ts';
import { BenchReceiver } from '../receiver.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, newCompany } from '../support.ts';
import { MIXED_COLUMNS, mixedRow } from './load-knee.ts';

export const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 0);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 20);
const SAMPLE_SECONDS = 10;
const COMPANIES = 4;
const GROWTH_LIMIT = 0.2;
/** BENCH_SOAK_HEAP_SNAPSHOTS=1: a heap snapshot after the warm-up and one at the end, to compare. */
const SNAPSHOTS = process.env.BENCH_SOAK_HEAP_SNAPSHOTS === '1';

interface MemorySample {
  at: number;
  rss: number;
  heap: number;
  external: number;
  dynamo: number | null;
}

/**
 * Memory after a full collection when the bench runs with --expose-gc: between collections V8
 * keeps garbage as long as it likes, so a sample without one measures the collector's schedule
 * as much as what the process holds.
 */
async function memorySample(at: number, dynamoPid: number | undefined): Promise<MemorySample> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const usage = process.memoryUsage();
  return { at, rss: usage.rss, heap: usage.heapUsed, external: usage.external + usage.arrayBuffers, dynamo: await rssOfPid(dynamoPid) };
}

function snapshot(label: string): string {
  mkdirSync('.bench-snapshots', { recursive: true });
  return writeHeapSnapshot(join('.bench-snapshots', `soak-${label}-${Date.now()}.heapsnapshot`));
}

/**
 * Issue 8, soak (opt-in: BENCH_SOAK_MINUTES): the mixed workload at a moderate fixed rate for N
 * minutes with the chain jobs (every 1 s) and the webhook dispatcher + sender (every 250 ms) running,
 * as `npm start` runs them, and a sandbox deposit paid every 10 s; every company has a webhook for
 * every event to a loopback receiver. RSS of this process (API + jobs + sender + receiver) every
 * 10 s; growth judged from the first sample after the warm-up (first 20 %, at least 1 minute) to the
 * end. Afterwards: every event item of the soak's companies dispatched and delivered, and the ledger.
 */
export const soakScenario: Scenario = {
  name: 'soak',
  title: `Soak: mixed workload for ${SOAK_MINUTES} min with chain jobs and webhooks running`,
  async run({ runtime, log, dynamoPid }) {
    const failures: string[] = [];
    const receiver = await new BenchReceiver().start();
    const db = createDocumentClient(runtime.dynamoEndpoint);
    const chain = new SandboxChain(db, runtime.tableName, {
      blockIntervalMs: Number(process.env.SANDBOX_BLOCK_INTERVAL_MS),
      solidifyAfter: Number(process.env.DEPOSIT_REQUIRED_CONFIRMATIONS),
    });
    const companies: MixedCompany[] = [];
    const apis: ReturnType<typeof apiClient>[] = [];
    const ids: string[] = [];
    const secrets = new Set<string>();
    for (let i = 0; i < COMPANIES; i++) {
      const credentials = await newCompany(runtime, `Bench Soak ${i}`, '1000000000');
      const api = apiClient(runtime.apiUrl, credentials);
      const hook = await api('POST', '/webhooks', { url: receiver.url(`/soak-${i}`), events: ['*'] });
      if (hook.status !== 201) throw new Error(`POST /v1/webhooks answered ${hook.status}`);
      secrets.add(String(hook.body.data?.secret));
      const created = await api('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `soak-seed-${i}` });
      companies.push({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, depositIds: [String(created.body.data?.id)] });
      apis.push(api);
      ids.push(credentials.companyId);
    }
    // One receiver for four webhooks: verify with whichever secret fits.
    receiver.secrets = [...secrets];

    const loops: Loops[] = [startChainJobs(1000), await startWebhookLoops(250)];
    const generator = new MixedGenerator();
    const samples: MemorySample[] = [];
    const results: MixedResult[] = [];
    let paid = 0;
    const paidIds = new Set<string>();
    const started = Date.now();
    const end = started + SOAK_MINUTES * 60_000;
    const warmupSeconds = Math.max(60, SOAK_MINUTES * 60 * 0.2);
    let snapshotAfterWarmup: string | null = null;
    try {
      while (Date.now() < end) {
        const segment = generator.run({ apiUrl: runtime.apiUrl, companies, rate: RATE, seconds: SAMPLE_SECONDS, maxInFlight: 256, tag: `soak-${samples.length}` });
        // A deposit paid on the sandbox chain per segment: deposit.confirming and deposit.completed events.
        const deposit = await apis[paid % COMPANIES]!('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `soak-paid-${paid}`, amount: '5' });
        if (deposit.status === 201) {
          await chain.submitTransfer({
            contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
            from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 1_998_000_000 + paid),
            to: String(deposit.body.data?.address),
            amount: parseAmount('5', 'USDT'),
          });
          paid++;
          paidIds.add(String(deposit.body.data?.id));
        }
        results.push(await segment);
        const sample = await memorySample((Date.now() - started) / 1000, dynamoPid);
        samples.push(sample);
        if (SNAPSHOTS && sample.at >= warmupSeconds && !snapshotAfterWarmup) snapshotAfterWarmup = snapshot('after-warmup');
        const last = summariseMixed(RATE, results[results.length - 1]!);
        log(
          `  ${sample.at.toFixed(0)} s: rss ${mib(sample.rss)}, after GC: heap ${mib(sample.heap)}, external ${mib(sample.external)}; p99 ${last.p99.toFixed(0)} ms, delivered ${receiver.eventIds.size}`,
        );
      }
    } finally {
      await generator.close();
    }
    const snapshotAtEnd = SNAPSHOTS ? snapshot('end') : null;

    // Drain: the chain jobs stopped once the deposits paid are complete (or 60 s), then wait until
    // the dispatcher has nothing left and every event of the soak's companies has arrived.
    const drainStart = Date.now();
    let events: string[] = [];
    let undispatched = -1;
    const depositsDone = () => receiver.verified.filter((d) => d.type === 'deposit.completed' && paidIds.has(d.dataId ?? '')).length >= paidIds.size;
    while (!depositsDone() && Date.now() - drainStart < 60_000) await new Promise((resolve) => setTimeout(resolve, 250));
    await loops[0]!.stop();
    while (Date.now() - drainStart < 180_000) {
      events = (await Promise.all(ids.map((id) => eventIdsOf(db, runtime.tableName, id)))).flat();
      undispatched = await undispatchedCount(db, runtime.tableName);
      if (undispatched === 0 && events.every((id) => receiver.eventIds.has(id))) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await loops[1]!.stop();
    const lost = events.filter((id) => !receiver.eventIds.has(id));
    const byType: Record<string, number> = {};
    for (const d of receiver.verified) byType[d.type] = (byType[d.type] ?? 0) + 1;
    const ledger = await checkAllLedgers(db, runtime.tableName);
    await receiver.stop();
    db.destroy();

    const afterWarmup = samples.filter((s) => s.at >= warmupSeconds);
    const base = afterWarmup[0];
    const final = samples[samples.length - 1];
    const growth = base && final ? final.rss / base.rss - 1 : Number.NaN;
    const heapGrowth = base && final ? final.heap / base.heap - 1 : Number.NaN;
    const peak = afterWarmup.reduce((max, s) => Math.max(max, s.rss), 0);
    if (lost.length) failures.push(`${lost.length} of ${events.length} events not delivered (e.g. ${lost.slice(0, 3).join(', ')})`);
    if (undispatched !== 0) failures.push(`${undispatched} events still undispatched after the drain`);
    if (receiver.rejected) failures.push(`${receiver.rejected} deliveries failed verification`);
    if (ledger.mismatches.length) failures.push(`ledger: ${ledger.mismatches.slice(0, 3).join('; ')}`);
    const merged = mergeResults(results);
    const overall = summariseMixed(RATE, merged);

    return {
      name: 'soak',
      title: this.title,
      summaries: [],
      tables: [
        { title: `Mixed workload over the whole soak (${RATE} ops/s offered)`, columns: MIXED_COLUMNS, rows: [mixedRow(overall)] },
        {
          title: 'RSS samples (every 10 s; every 6th shown, and the last)',
          columns: ['second', 'bench process rss (after GC)', 'heap used (after GC)', 'external + array buffers', 'DynamoDB Local rss'],
          rows: samples
            .filter((_, i) => i % 6 === 0 || i === samples.length - 1)
            .map((s) => [Math.round(s.at), mib(s.rss), mib(s.heap), mib(s.external), mib(s.dynamo)]),
        },
        {
          title: 'Events',
          columns: ['measure', 'value'],
          rows: [
            ['event items of the soak companies', events.length],
            ['delivered (verified, distinct)', events.length - lost.length],
            ['lost', lost.length],
            ['undispatched after drain', undispatched],
            ['deliveries by type', JSON.stringify(byType)],
            ['sandbox deposits paid', paid],
            ['drain seconds after the load stopped', ((Date.now() - drainStart) / 1000).toFixed(0)],
          ],
        },
      ],
      goals: [
        {
          goal: `RSS growth after warm-up ≤ ${GROWTH_LIMIT * 100} %`,
          met: Number.isFinite(growth) && growth <= GROWTH_LIMIT,
          detail: base && final ? `${mib(base.rss)} at ${Math.round(base.at)} s → ${mib(final.rss)} at ${Math.round(final.at)} s (${(growth * 100).toFixed(1)} %), peak ${mib(peak)}` : 'too short for a sample after the warm-up',
        },
        {
          goal: `live heap (after a full GC) growth after warm-up ≤ ${GROWTH_LIMIT * 100} %`,
          met: Number.isFinite(heapGrowth) && heapGrowth <= GROWTH_LIMIT,
          detail: base && final ? `${mib(base.heap)} → ${mib(final.heap)} (${(heapGrowth * 100).toFixed(1)} %)` : 'too short for a sample after the warm-up',
        },
        { goal: 'no event lost', met: lost.length === 0 && undispatched === 0, detail: `${events.length - lost.length}/${events.length} delivered` },
        { goal: 'every balance equals the sum of its ledger postings', met: ledger.mismatches.length === 0, detail: `${ledger.companies} companies: ${ledger.mismatches.length ? 'FAIL' : 'PASS'}` },
      ],
      failures,
      notes: [
        ...(typeof globalThis.gc === 'function' ? [] : ['global.gc was not exposed (run the bench with --expose-gc, as `npm run bench` does): samples were taken without a forced GC.']),
        ...(snapshotAtEnd ? [`Heap snapshots: ${snapshotAfterWarmup ?? '(none after warm-up)'} and ${snapshotAtEnd} (open both in Chrome DevTools, Memory, Comparison).`] : []),
        `Warm-up excluded from the growth figure: the first ${warmupSeconds.toFixed(0)} s. RSS is this process's: API, chain jobs, dispatcher, sender and receiver (which keeps one small record per delivery).`,
        'Mix as in load-knee; chain jobs every 1 s, dispatcher every 250 ms (the local runtime defaults), sandbox blocks every 100 ms.',
      ],
    };
  },
};

function mergeResults(results: readonly MixedResult[]): MixedResult {
  const statusCodes: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  for (const r of results) {
    for (const [k, n] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.byKind)) byKind[k] = (byKind[k] ?? 0) + n;
  }
  const latencies = new Float64Array(results.reduce((n, r) => n + r.latencies.length, 0));
  let offset = 0;
  for (const r of results) {
    latencies.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  return {
    seconds: results.reduce((n, r) => n + r.seconds, 0),
    operations: results.reduce((n, r) => n + r.operations, 0),
    skipped: results.reduce((n, r) => n + r.skipped, 0),
    latencies,
    statusCodes,
    errors: results.reduce((n, r) => n + r.errors, 0),
    byKind,
  };
}
