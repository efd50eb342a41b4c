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

/** A table of figures a scenario reports besides its load summaries (printed and in Markdown). */
export interface ResultTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface ScenarioResult {
  name: string;
  title: string;
  /** autocannon targets; empty for scenarios without HTTP load. */
  summaries: LoadSummary[];
  comparison?: Comparison;
  tables?: ResultTable[];
  /** Goals judged by the scenario (e.g. "≥ 3.3 blocks/s"). */
  goals?: { goal: string; met: boolean; detail: string }[];
  /** Any expectation broken (a non-201 answer, a miscount): the run exits 1, like a flagged target. */
  failures?: string[];
  notes: string[];
}

/** One benchmark; register it in scenarios/index.ts. */
export interface Scenario {
  name: string;
  title: string;
  run(context: BenchContext): Promise<ScenarioResult>;
}
