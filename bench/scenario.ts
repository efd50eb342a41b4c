import type { LocalRuntime } from '#local/runtime';
import type { BenchSettings, LoadGenerator, LoadSummary, Overhead } from './harness.ts';

/** What every scenario gets: the running local runtime (sandbox company included), the shared
 * load generator and the run's settings. */
export interface BenchContext {
  runtime: LocalRuntime;
  load: LoadGenerator;
  settings: BenchSettings;
  /** DynamoDB Local's process id, when it could be found (Linux), for its CPU time. */
  dynamoPid: number | undefined;
  log: (line: string) => void;
}

export interface Comparison {
  subject: string;
  baseline: string;
  overhead: Overhead;
  /** The largest acceptable overhead ratio. */
  goal: number;
  /** Throughput and p50 ratios both under the goal (p99 is reported, not judged: too noisy). */
  met: boolean;
}

export interface ScenarioResult {
  name: string;
  title: string;
  summaries: LoadSummary[];
  comparison?: Comparison;
  notes: string[];
}

/** One benchmark; register it in scenarios/index.ts. */
export interface Scenario {
  name: string;
  title: string;
  run(context: BenchContext): Promise<ScenarioResult>;
}
