import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { STAGES } from '../../config/stages.ts';
import { firstTierOf } from '../../config/capacity.ts';
import type { SandboxCredentials } from '#local/runtime';
import type { Scenario } from '../scenario.ts';
import { authHeaders } from '../support.ts';

/**
 * Issue #45, fairness: one company (A) at ten times its plan beside another (B) at its plan, on a
 * runtime that enforces `npm start`'s throttles (the sandbox stage's: each company's plan, then the
 * stage's, in API Gateway's order). What B sees with A bursting is set beside what it sees alone, in
 * the same run: its 429s (goal: none) and its p99 (goal: within 1.5× of alone). The two phases
 * alternate, ROUNDS times each, so a slow moment of the machine falls on both.
 */
const ROUNDS = 4;
const PHASE_SECONDS = Number(process.env.BENCH_FAIRNESS_PHASE_SECONDS ?? 10);
const P99_RATIO_GOAL = 1.5;
const { capacity } = STAGES.local;
const CHILD = fileURLToPath(new URL('../fairness-child.ts', import.meta.url));

interface Paced {
  statuses: number[];
  latenciesMs: number[];
}

/** GET /v1/company/balance at `rate` a second for `seconds`, each request on its own (none waits
 * for the one before): what an integrator's servers at that rate send. */
async function paced(apiUrl: string, credentials: SandboxCredentials, rate: number, seconds: number): Promise<Paced> {
  const result: Paced = { statuses: [], latenciesMs: [] };
  const requests: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    requests.push(
      fetch(`${apiUrl}/company/balance`, { headers: authHeaders(credentials) }).then(async (response) => {
        await response.arrayBuffer();
        result.statuses.push(response.status);
        if (response.status === 200) result.latenciesMs.push(performance.now() - sent);
      }),
    );
  }
  await Promise.all(requests);
  return result;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const merge = (all: Paced[]): Paced => ({ statuses: all.flatMap((one) => one.statuses), latenciesMs: all.flatMap((one) => one.latenciesMs) });
const throttled = (paced: Paced) => paced.statuses.filter((status) => status === 429).length;

export const fairnessScenario: Scenario = {
  name: 'fairness',
  title: "Fairness: company A at 10× its plan beside company B at its plan, on npm start's throttles: B's 429s and p99 against B alone",
  async run({ runtime: benchRuntime, log }) {
    // The API in a process of its own, on npm start's throttles (bench/fairness-child.ts); the load from here.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, benchRuntime.dynamoEndpoint], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'WARN' } });
    try {
      let line = '';
      for await (const next of createInterface({ input: child.stdout! })) if ((line = next).startsWith('{"apiUrl"')) break;
      if (!line.startsWith('{"apiUrl"')) throw new Error('the fairness API did not start (bench/fairness-child.ts)');
      const { apiUrl, busy: a, quiet: b } = JSON.parse(line) as { apiUrl: string; busy: SandboxCredentials; quiet: SandboxCredentials };
      const plan = firstTierOf(capacity).rateLimit;
      // Each company's first request fills the authorizer's cache, as a running integration's would have.
      await paced(apiUrl, a, 1, 1);
      await paced(apiUrl, b, 1, 1);
      const alone: Paced[] = [];
      const beside: Paced[] = [];
      const busy: Paced[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        alone.push(await paced(apiUrl, b, plan, PHASE_SECONDS));
        const [quiet, loud] = await Promise.all([paced(apiUrl, b, plan, PHASE_SECONDS), paced(apiUrl, a, plan * 10, PHASE_SECONDS)]);
        beside.push(quiet);
        busy.push(loud);
        log(`  round ${round}/${ROUNDS}: B alone p99 ${percentile(alone.at(-1)!.latenciesMs, 99).toFixed(1)} ms; beside A p99 ${percentile(quiet.latenciesMs, 99).toFixed(1)} ms, ${throttled(quiet)} × 429; A ${throttled(loud)} of ${loud.statuses.length} × 429`);
      }
      const [bAlone, bBeside, aBusy] = [merge(alone), merge(beside), merge(busy)];
      const p99Alone = percentile(bAlone.latenciesMs, 99);
      const p99Beside = percentile(bBeside.latenciesMs, 99);
      const ratio = p99Beside / p99Alone;
      const quiet429s = throttled(bBeside) + throttled(bAlone);
      const row = (label: string, paced: Paced, rate: number) => [label, rate, paced.statuses.length, throttled(paced), percentile(paced.latenciesMs, 50).toFixed(1), percentile(paced.latenciesMs, 99).toFixed(1)];
      return {
        name: 'fairness',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: `GET /v1/company/balance, plan ${plan}/s per company, stage ${STAGES.local.throttle.rateLimit}/s (burst ${STAGES.local.throttle.burstLimit}); ${ROUNDS} rounds of ${PHASE_SECONDS} s each phase`,
            columns: ['who', 'req/s offered', 'requests', '429s', 'p50 ms', 'p99 ms'],
            rows: [row('B alone', bAlone, plan), row('B beside A', bBeside, plan), row('A (10× its plan)', aBusy, plan * 10)],
          },
        ],
        goals: [
          { goal: 'B answered no 429, alone or beside A', met: quiet429s === 0, detail: `${quiet429s} × 429 of ${bAlone.statuses.length + bBeside.statuses.length}` },
          { goal: `B's p99 beside A within ${P99_RATIO_GOAL}× of B alone`, met: ratio <= P99_RATIO_GOAL, detail: `${p99Beside.toFixed(1)} ms ÷ ${p99Alone.toFixed(1)} ms = ${ratio.toFixed(2)}×` },
          { goal: "A's excess refused by its own plan", met: throttled(aBusy) > 0, detail: `${throttled(aBusy)} of ${aBusy.statuses.length} × 429` },
        ],
        notes: [
          'A second local runtime in a process of its own (bench/fairness-child.ts) over the bench DynamoDB Local, with `npm start`\'s throttles; load paced in the bench process (each request on its own, none waiting for the one before).',
        ],
      };
    } finally {
      child.stdin!.end();
      await once(child, 'exit');
    }
  },
};
