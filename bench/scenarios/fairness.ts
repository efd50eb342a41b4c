import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { STAGES } from '../../config/stages.ts';
import { firstTierOf } from '../../config/capacity.ts';
import type { SandboxCredentials } from '#local/runtime';
import type { Scenario } from '../scenario.ts';
import { authHeaders } from '../support.ts';
import { paced, type Paced } from '../paced.ts';

/**
 * Issue #45, fairness: one company (A) at ten times its plan beside another (B) at its plan, on a
 * runtime that enforces `npm start`'s throttles (the sandbox stage's: each company's plan, then its
 * method's bucket, in API Gateway's order; both companies call one method, so they share that bucket). What B sees with A bursting is set beside what it sees alone, in
 * the same run: its 429s (goal: none) and its p99 (goal: within 1.5× of alone). The two phases
 * alternate, ROUNDS times each, so a slow moment of the machine falls on both. A's load comes from a
 * process of its own (bench/fairness-load.ts), as another company's servers would: sent from this
 * one, its callbacks would sit between B's answers and the times taken of them.
 */
const ROUNDS = 4;
const PHASE_SECONDS = Number(process.env.BENCH_FAIRNESS_PHASE_SECONDS ?? 10);
const P99_RATIO_GOAL = 1.5;
const WARM_UP_SECONDS = 3;
const { capacity } = STAGES.local;
const CHILD = fileURLToPath(new URL('../fairness-child.ts', import.meta.url));
const LOAD = fileURLToPath(new URL('../fairness-load.ts', import.meta.url));

/** B's phase from here, A's from its own process (bench/fairness-load.ts). */
const balanceOf = (apiUrl: string, credentials: SandboxCredentials, rate: number, seconds: number) => paced(`${apiUrl}/company/balance`, authHeaders(credentials), rate, seconds);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const merge = (all: Paced[]): Paced => ({ statuses: all.flatMap((one) => one.statuses), latenciesMs: all.flatMap((one) => one.latenciesMs) });
const throttled = (phase: Paced) => phase.statuses.filter((status) => status === 429).length;

export const fairnessScenario: Scenario = {
  name: 'fairness',
  title: "Fairness: company A at 10× its plan beside company B at its plan, on npm start's throttles: B's 429s and p99 against B alone",
  async run({ runtime: benchRuntime, log }) {
    // The API in a process of its own, on npm start's throttles (bench/fairness-child.ts); B's load from
    // here, A's from a third process (bench/fairness-load.ts).
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, benchRuntime.dynamoEndpoint], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'WARN' } });
    const loader = spawn(process.execPath, ['--import', 'tsx', LOAD], { stdio: ['pipe', 'pipe', 'inherit'] });
    const loaderAnswers = createInterface({ input: loader.stdout! })[Symbol.asyncIterator]();
    /** One phase of A's load, run by the loader process. */
    const busyPhase = async (apiUrl: string, credentials: SandboxCredentials, rate: number, seconds: number): Promise<Paced> => {
      loader.stdin!.write(`${JSON.stringify({ url: `${apiUrl}/company/balance`, headers: authHeaders(credentials), rate, seconds })}\n`);
      const answer = await loaderAnswers.next();
      if (answer.done) throw new Error('the fairness load process ended (bench/fairness-load.ts)');
      return JSON.parse(answer.value) as Paced;
    };
    try {
      let line = '';
      for await (const next of createInterface({ input: child.stdout! })) if ((line = next).startsWith('{"apiUrl"')) break;
      if (!line.startsWith('{"apiUrl"')) throw new Error('the fairness API did not start (bench/fairness-child.ts)');
      const { apiUrl, busy: a, quiet: b } = JSON.parse(line) as { apiUrl: string; busy: SandboxCredentials; quiet: SandboxCredentials };
      const plan = firstTierOf(capacity).rateLimit;
      // Each company's first request fills the authorizer's cache, as a running integration's would have.
      await busyPhase(apiUrl, a, 1, 1);
      await balanceOf(apiUrl, b, 1, 1);
      // Unmeasured, as the other scenarios' warm-up: the first seconds of A's burst meet code paths
      // not yet compiled and a heap not yet grown (round 1 ran 1.5× above the others without it).
      await Promise.all([balanceOf(apiUrl, b, plan, WARM_UP_SECONDS), busyPhase(apiUrl, a, plan * 10, WARM_UP_SECONDS)]);
      const alone: Paced[] = [];
      const beside: Paced[] = [];
      const busy: Paced[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        alone.push(await balanceOf(apiUrl, b, plan, PHASE_SECONDS));
        const [quiet, loud] = await Promise.all([balanceOf(apiUrl, b, plan, PHASE_SECONDS), busyPhase(apiUrl, a, plan * 10, PHASE_SECONDS)]);
        beside.push(quiet);
        busy.push(loud);
        log(`  round ${round}/${ROUNDS}: B alone p99 ${percentile(alone.at(-1)!.latenciesMs, 99).toFixed(1)} ms; beside A p99 ${percentile(quiet.latenciesMs, 99).toFixed(1)} ms, ${throttled(quiet)} × 429; A ${throttled(loud)} of ${loud.statuses.length} × 429`);
      }
      const [bAlone, bBeside, aBusy] = [merge(alone), merge(beside), merge(busy)];
      const p99Alone = percentile(bAlone.latenciesMs, 99);
      const p99Beside = percentile(bBeside.latenciesMs, 99);
      const ratio = p99Beside / p99Alone;
      const quiet429s = throttled(bBeside) + throttled(bAlone);
      const row = (label: string, phase: Paced, rate: number) => [label, rate, phase.statuses.length, throttled(phase), percentile(phase.latenciesMs, 50).toFixed(1), percentile(phase.latenciesMs, 99).toFixed(1)];
      return {
        name: 'fairness',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: `GET /v1/company/balance, plan ${plan}/s per company, the method's bucket ${STAGES.local.throttle.rateLimit}/s (burst ${STAGES.local.throttle.burstLimit}); ${ROUNDS} rounds of ${PHASE_SECONDS} s each phase`,
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
          'A second local runtime in a process of its own (bench/fairness-child.ts) over the bench DynamoDB Local, with `npm start`\'s throttles; load paced (each request on its own, none waiting for the one before), B\'s from the bench process and A\'s from a third (bench/fairness-load.ts).',
        ],
      };
    } finally {
      loader.stdin!.end();
      child.stdin!.end();
      await Promise.all([once(loader, 'exit'), once(child, 'exit')]);
    }
  },
};
