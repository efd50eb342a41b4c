import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { percentile } from './harness.ts';

/** The mixed workload (bench/mixed-child.ts): GET balance 30 %, GET deposit 20 %, POST deposit
 * 15 %, POST withdrawal 15 %, POST quote then POST conversion 20 %, round-robin over companies. */
export interface MixedCompany {
  apiKey: string;
  apiSecret: string;
  /** Deposits the GETs read (POST deposit adds its own). */
  depositIds: string[];
}

export interface MixedJob {
  id: number;
  apiUrl: string;
  companies: MixedCompany[];
  /** Operations started per second (a quote + conversion is one operation, two requests). */
  rate: number;
  seconds: number;
  maxInFlight: number;
  /** Prefix of the run's references (unique per run). */
  tag: string;
}

export interface MixedResult {
  seconds: number;
  operations: number;
  skipped: number;
  latencies: Float64Array;
  statusCodes: Record<string, number>;
  errors: number;
  byKind: Record<string, number>;
}

export type MixedReply = { id: number; result: MixedResult; error?: undefined } | { id: number; error: string; result?: undefined };

export interface MixedSummary {
  rate: number;
  requestsPerSecond: number;
  requests: number;
  skipped: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export function summariseMixed(rate: number, result: MixedResult): MixedSummary {
  const sorted = Float64Array.from(result.latencies).sort();
  const non2xx = Object.entries(result.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    rate,
    requestsPerSecond: sorted.length / result.seconds,
    requests: sorted.length,
    skipped: result.skipped,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    non2xx,
    errors: result.errors,
    statusCodes: result.statusCodes,
  };
}

export class MixedGenerator {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: MixedResult) => void; reject: (error: Error) => void }>();

  constructor() {
    this.child = fork(fileURLToPath(new URL('./mixed-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: MixedReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiter.reject(new Error(`mixed generator: ${reply.error}`));
      else waiter.resolve(reply.result);
    });
    this.child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`mixed generator exited with code ${code}`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(job: Omit<MixedJob, 'id'>): Promise<MixedResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...job, id } satisfies MixedJob);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
