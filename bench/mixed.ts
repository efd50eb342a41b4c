import { percentile } from './harness.ts';
import { ChildWorker } from './child-worker.ts';

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

/** The mixed workload's sender in a child process (mixed-child.ts), reused for every run. */
export class MixedGenerator {
  private readonly worker = new ChildWorker<Omit<MixedJob, 'id'>, MixedResult>(new URL('./mixed-child.ts', import.meta.url), 'mixed generator');

  get pid(): number | undefined {
    return this.worker.pid;
  }

  run(job: Omit<MixedJob, 'id'>): Promise<MixedResult> {
    return this.worker.run(job);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
