import { countDynamoRequests, dynamoRequestCounts } from './dynamo-requests.ts';
import { ChildWorker } from './child-worker.ts';

/**
 * Shared benchmark helpers: a load generator (autocannon in a child process), merging of rounds,
 * percentiles and the comparison of two targets measured in the same run.
 */

countDynamoRequests();

/** One HTTP request shape to load a server with. */
export interface Target {
  label: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** autocannon's idReplacement: every `[<id>]` in the request (body or header values) becomes a
   * fresh id per request, e.g. a unique `reference` or Idempotency-Key. */
  idReplacement?: boolean;
}

export interface LoadJob {
  id: number;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  idReplacement?: boolean;
  connections: number;
  seconds: number;
}

/** What one autocannon run observed: every response's latency (ms, sub-ms precision) and counts. */
export interface LoadSample {
  seconds: number;
  /** Requests autocannon sent, answered or not (those in flight when the run stopped). */
  sent: number;
  /** Filled in by the parent: its own CPU time (µs) during the run. */
  serverCpuMicros?: number;
  /** Filled in by the parent: DynamoDB Local's CPU time (µs) during the run, when known. */
  dynamoCpuMicros?: number | null;
  /** Filled in by the parent: DynamoDB requests this process sent during the run, by operation. */
  dynamoRequests?: Record<string, number>;
  latencies: Float64Array;
  statusCodes: Record<string, number>;
  /** Connection errors (refused, reset). */
  errors: number;
  timeouts: number;
  non2xx: number;
}


export interface LoadSummary {
  label: string;
  requests: number;
  /** Requests sent, answered or not: the servers finish the ones in flight when a round stops. */
  sent: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p97_5: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** CPU time (user + system) this process spent per answered request while the target was
   * loaded: the servers under test live here, so this is their cost, free of DynamoDB Local's. */
  serverCpuMicrosPerRequest: number;
  /** DynamoDB Local's CPU time per answered request (from /proc, 10 ms ticks; null if unknown). */
  dynamoCpuMicrosPerRequest: number | null;
  /** DynamoDB requests sent by this process (the servers under test) during the measured rounds
   * (each round's count taken once the servers have gone quiet), by operation
   * (`dynamoRequestCounts`); divide by `sent` for a per-request figure under load. */
  dynamoRequests: Record<string, number>;
  /** True when anything other than a 2xx answer (or no answer) was seen. */
  flagged: boolean;
}

export interface BenchSettings {
  connections: number;
  /** Measured seconds per target, split over the rounds. */
  seconds: number;
  warmupSeconds: number;
  /** Measured rounds per target, run in ABBA order so drift and noise hit both targets alike. */
  rounds: number;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const number = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
    return value;
  };
  return {
    connections: Math.round(number('BENCH_CONNECTIONS', 10, 1)),
    seconds: number('BENCH_SECONDS', 10, 1),
    warmupSeconds: number('BENCH_WARMUP_SECONDS', 2, 0),
    rounds: Math.round(number('BENCH_ROUNDS', 8, 1)),
  };
}

/** autocannon in a child process (load-child.ts), reused for every run. */
export class LoadGenerator {
  private readonly worker = new ChildWorker<Omit<LoadJob, 'id'>, LoadSample>(new URL('./load-child.ts', import.meta.url), 'load generator');

  get pid(): number | undefined {
    return this.worker.pid;
  }

  run(target: Target, connections: number, seconds: number): Promise<LoadSample> {
    return this.worker.run({
      url: target.url,
      method: target.method,
      headers: target.headers,
      body: target.body,
      idReplacement: target.idReplacement,
      connections,
      seconds,
    });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

/** Warms every target, then measures them in ABBA… order (one round each per pass, the order
 * reversed on every other pass) and merges each target's rounds. */
export async function compareTargets(
  load: LoadGenerator,
  targets: readonly Target[],
  settings: BenchSettings,
  options: { log?: (line: string) => void; dynamoPid?: number } = {},
): Promise<LoadSummary[]> {
  const log = options.log ?? (() => {});
  if (settings.warmupSeconds > 0) {
    for (const target of targets) {
      log(`  warm-up ${target.label} (${settings.warmupSeconds} s)`);
      await load.run(target, settings.connections, settings.warmupSeconds);
    }
  }
  const roundSeconds = settings.seconds / settings.rounds;
  const samples = new Map<Target, LoadSample[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      log(`  round ${round + 1}/${settings.rounds} ${target.label} (${roundSeconds} s)`);
      const cpu = process.cpuUsage();
      const dynamoBefore = await cpuMicrosOfPid(options.dynamoPid);
      const requestsBefore = snapshotDynamoRequests();
      const sample = await load.run(target, settings.connections, roundSeconds);
      const used = process.cpuUsage(cpu);
      // Requests in flight when autocannon stopped are still being served: count their calls too.
      await dynamoQuiet();
      const dynamoRequests = dynamoRequestsSince(requestsBefore);
      const dynamoAfter = await cpuMicrosOfPid(options.dynamoPid);
      samples.get(target)!.push({
        ...sample,
        serverCpuMicros: used.user + used.system,
        dynamoCpuMicros: dynamoBefore !== null && dynamoAfter !== null ? dynamoAfter - dynamoBefore : null,
        dynamoRequests,
      });
    }
  }
  return targets.map((target) => summarise(target.label, samples.get(target)!));
}

export function summarise(label: string, samples: readonly LoadSample[]): LoadSummary {
  const total = (pick: (sample: LoadSample) => number) => samples.reduce((sum, sample) => sum + pick(sample), 0);
  const seconds = total((sample) => sample.seconds);
  const sent = total((sample) => sample.sent);
  const errors = total((sample) => sample.errors);
  const timeouts = total((sample) => sample.timeouts);
  const non2xx = total((sample) => sample.non2xx);
  const count = total((sample) => sample.latencies.length);
  const cpuMicros = total((sample) => sample.serverCpuMicros ?? 0);
  // Unknown (null) as soon as one sample could not read DynamoDB Local's CPU time.
  const dynamoMicros = samples.some((sample) => sample.dynamoCpuMicros == null) ? null : total((sample) => sample.dynamoCpuMicros!);
  const statusCodes = addedCounts(samples.map((sample) => sample.statusCodes));
  const dynamoRequests = addedCounts(samples.map((sample) => sample.dynamoRequests ?? {}));
  const all = new Float64Array(count);
  let offset = 0;
  for (const sample of samples) {
    all.set(sample.latencies, offset);
    offset += sample.latencies.length;
  }
  all.sort();
  const mean = count ? all.reduce((sum, value) => sum + value, 0) / count : 0;
  return {
    label,
    requests: count,
    sent,
    seconds,
    requestsPerSecond: seconds > 0 ? count / seconds : 0,
    latencyMs: {
      mean,
      p50: percentile(all, 50),
      p97_5: percentile(all, 97.5),
      p99: percentile(all, 99),
      max: count ? all[count - 1]! : 0,
    },
    statusCodes,
    errors,
    timeouts,
    non2xx,
    serverCpuMicrosPerRequest: count ? cpuMicros / count : 0,
    dynamoCpuMicrosPerRequest: count && dynamoMicros !== null ? dynamoMicros / count : null,
    dynamoRequests,
    flagged: non2xx > 0 || errors > 0 || timeouts > 0 || count === 0,
  };
}

/** Counts by name, added up over several records. */
function addedCounts(records: readonly Record<string, number>[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const record of records) for (const [name, n] of Object.entries(record)) sums[name] = (sums[name] ?? 0) + n;
  return sums;
}

/** A copy of `dynamoRequestCounts` (requests this process's DynamoDB clients have sent, by operation). */
export function snapshotDynamoRequests(): Map<string, number> {
  return new Map(dynamoRequestCounts);
}

/** Requests sent since `before`, by operation (operations with none left out), sorted by name. */
export function dynamoRequestsSince(before: ReadonlyMap<string, number>): Record<string, number> {
  return countsSince(dynamoRequestCounts, before);
}

/** What a running count by name (`counts`) has added since its copy `before`; names with none left out, sorted. */
export function countsSince(counts: ReadonlyMap<string, number>, before: ReadonlyMap<string, number>): Record<string, number> {
  const diff: Record<string, number> = {};
  for (const name of [...counts.keys()].sort()) {
    const n = (counts.get(name) ?? 0) - (before.get(name) ?? 0);
    if (n > 0) diff[name] = n;
  }
  return diff;
}

/** Waits until this process has sent no DynamoDB request for 750 ms (longer than
 * MoneyTransaction's longest conflict back-off, 200 ms, and than one DynamoDB Local call takes on
 * a loaded 2-core machine), at most 5 s. */
export async function dynamoQuiet(): Promise<void> {
  const total = () => [...dynamoRequestCounts.values()].reduce((sum, n) => sum + n, 0);
  const deadline = Date.now() + 5000;
  let last = total();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 750));
    const now = total();
    if (now === last) return;
    last = now;
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** How much slower `subject` is than `baseline`: > 1 means slower, for every figure. */
export interface Overhead {
  throughput: number;
  p50: number;
  p99: number;
  /** Server CPU per request, subject ÷ baseline. */
  serverCpu: number;
}

export function overhead(subject: LoadSummary, baseline: LoadSummary): Overhead {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  return {
    throughput: ratio(baseline.requestsPerSecond, subject.requestsPerSecond),
    p50: ratio(subject.latencyMs.p50, baseline.latencyMs.p50),
    p99: ratio(subject.latencyMs.p99, baseline.latencyMs.p99),
    serverCpu: ratio(subject.serverCpuMicrosPerRequest, baseline.serverCpuMicrosPerRequest),
  };
}

/** user + system CPU time of a process by pid, from /proc (Linux; 10 ms ticks); null elsewhere. */
export async function cpuMicrosOfPid(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * (1_000_000 / CLOCK_TICKS_PER_SECOND) : null;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux build Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Resident set size of a process by pid, from /proc (Linux); null elsewhere. */
export async function rssOfPid(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

export const mib = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MiB`);
