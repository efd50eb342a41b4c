/**
 * `npm run bench`: starts the local runtime in memory (chain jobs and webhook loops off), runs every registered
 * scenario (scenarios/index.ts: HTTP routes with autocannon, the deposit scanner without HTTP),
 * prints tables and Markdown tables for BENCHMARKS.md, and writes the figures to .bench-results.json.
 *
 * Env: BENCH_SECONDS (measured seconds per target, default 10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (10), BENCH_ROUNDS (8, alternating AB BA AB …), BENCH_SCENARIOS (comma-separated names),
 * BENCH_SCANNER_ADDRESSES (registered deposit addresses in the scanner scenario, default 100000),
 * LOG_LEVEL (WARN unless set: INFO adds the API's access-log line per request to the measurement).
 */
// Before anything loads the AWS SDK (static imports would be evaluated before this line).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// The API's one access-log line per request (INFO) would flood the output and add a stdout write to
// every request; WARN keeps errors. LOG_LEVEL=INFO npm run bench measures with the lines.
process.env.LOG_LEVEL ??= 'WARN';

const { readFile, writeFile } = await import('node:fs/promises');
const { cpus, totalmem } = await import('node:os');
const { LOAD_TEST_RATE_LIMITS, startLocalRuntime } = await import('#local/runtime');
const { LoadGenerator, settingsFromEnv, rssOfPid, mib } = await import('./harness.ts');
const { SCENARIOS } = await import('./scenarios/index.ts');
type ScenarioResult = import('./scenario.ts').ScenarioResult;
type LoadSummary = import('./harness.ts').LoadSummary;

const RESULTS_FILE = '.bench-results.json';
const log = (line: string) => console.log(line);

const settings = settingsFromEnv();
const only = process.env.BENCH_SCENARIOS?.split(',').map((name) => name.trim()).filter(Boolean);
const scenarios = only?.length ? SCENARIOS.filter((scenario) => only.includes(scenario.name)) : SCENARIOS;
if (only?.length && scenarios.length !== only.length) {
  throw new Error(`Unknown scenario in BENCH_SCENARIOS; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
}

const started = Date.now();
log(`Starting the local runtime (DynamoDB Local in memory)…`);
// Chain jobs and webhook loops off: their timers would add DynamoDB requests (and CPU) to every
// measurement, and the DynamoDB request counts must be the routes' own.
// Fast sandbox blocks for the webhook/soak scenarios' deposits (they start the loops themselves; bench/loops.ts).
const runtime = await startLocalRuntime({
  dataDir: null,
  port: 0,
  pollIntervalMs: 0,
  webhookIntervalMs: 0,
  environment: { SANDBOX_BLOCK_INTERVAL_MS: process.env.SANDBOX_BLOCK_INTERVAL_MS ?? '100' },
  // The benchmarks measure the API, not `npm start`'s throttles (the sandbox stage's 10 requests a
  // second per company would answer nearly all of them 429).
  ...LOAD_TEST_RATE_LIMITS,
});
const load = new LoadGenerator();
const dynamoPid = await dynamoDbLocalPid();
const results: ScenarioResult[] = [];
let memory: Record<string, number | null> = {};
try {
  log(
    `Runtime up in ${((Date.now() - started) / 1000).toFixed(1)} s. ${settings.connections} connections, ` +
      `${settings.seconds} s per target in ${settings.rounds} round(s) after a ${settings.warmupSeconds} s warm-up.`,
  );
  for (const scenario of scenarios) {
    log(`\n[${scenario.name}] ${scenario.title}`);
    results.push(await scenario.run({ runtime, load, settings, dynamoPid, log }));
  }
  const usage = process.memoryUsage();
  memory = {
    benchProcessRss: usage.rss,
    benchProcessHeapUsed: usage.heapUsed,
    loadGeneratorRss: await rssOfPid(load.pid),
    dynamoDbLocalRss: await rssOfPid(dynamoPid),
  };
} finally {
  await load.close();
  await runtime.stop();
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory: mib(totalmem()),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
for (const result of results) printScenario(result);
log(
  `\nMemory after the run: bench process (API + bare server) rss ${mib(memory.benchProcessRss ?? null)}, ` +
    `heap used ${mib(memory.benchProcessHeapUsed ?? null)}; load generator rss ${mib(memory.loadGeneratorRss ?? null)}; ` +
    `DynamoDB Local rss ${mib(memory.dynamoDbLocalRss ?? null)}`,
);
log(`\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}, ${machine.platform}`);
log('\nMarkdown for BENCHMARKS.md:\n');
for (const result of results) log(markdown(result));

await writeFile(
  RESULTS_FILE,
  JSON.stringify({ date: new Date().toISOString(), machine, settings, memory, scenarios: results }, null, 2) + '\n',
);
const flagged = results.flatMap((result) => [
  ...result.summaries.filter((summary) => summary.flagged).map((s) => `${result.name}: ${s.label}`),
  ...(result.failures ?? []).map((failure) => `${result.name}: ${failure}`),
]);
log(`\nWrote ${RESULTS_FILE} in ${((Date.now() - started) / 1000).toFixed(0)} s total.`);
if (flagged.length) {
  log(`\nFLAGGED (unexpected answers, connection errors or failed checks; figures not comparable): ${flagged.join('; ')}`);
  process.exitCode = 1;
}

function printScenario(result: ScenarioResult): void {
  log(`\n[${result.name}] ${result.title}`);
  if (result.summaries.length) console.table(
    Object.fromEntries(
      result.summaries.map((s) => [
        s.label,
        {
          'req/s': Math.round(s.requestsPerSecond),
          requests: s.requests,
          'p50 ms': round(s.latencyMs.p50),
          'p97.5 ms': round(s.latencyMs.p97_5),
          'p99 ms': round(s.latencyMs.p99),
          'max ms': round(s.latencyMs.max),
          'cost: CPU ms/op': costOf(s),
          'DynamoDB Local CPU µs/req': s.dynamoCpuMicrosPerRequest === null ? 'n/a' : Math.round(s.dynamoCpuMicrosPerRequest),
          non2xx: s.non2xx,
          errors: s.errors + s.timeouts,
          status: s.flagged ? 'FLAGGED' : 'ok',
        },
      ]),
    ),
  );
  if (result.comparison) {
    const { overhead, goal, met } = result.comparison;
    log(
      `Overhead (${result.comparison.subject} vs ${result.comparison.baseline}): throughput ${overhead.throughput.toFixed(2)}x, ` +
        `p50 ${overhead.p50.toFixed(2)}x, p99 ${overhead.p99.toFixed(2)}x, server CPU per request ${overhead.serverCpu.toFixed(2)}x; goal < ${goal}x: ${met ? 'met' : 'NOT met'}`,
    );
  }
  for (const table of result.tables ?? []) {
    log(table.title);
    console.table(table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i]]))));
  }
  for (const goal of result.goals ?? []) log(`Goal ${goal.goal}: ${goal.met ? 'met' : 'NOT met'} (${goal.detail})`);
  for (const failure of result.failures ?? []) log(`FAILED: ${failure}`);
  for (const note of result.notes) log(`Note: ${note}`);
}

function markdown(result: ScenarioResult): string {
  const rows = result.summaries.map(
    (s: LoadSummary) =>
      `| ${s.label} | ${Math.round(s.requestsPerSecond)} | ${round(s.latencyMs.p50)} | ${round(s.latencyMs.p99)} | ${costOf(s)} | ${s.dynamoCpuMicrosPerRequest === null ? 'n/a' : Math.round(s.dynamoCpuMicrosPerRequest)} | ${s.non2xx + s.errors + s.timeouts} |`,
  );
  const lines = [`**${result.title}**`, ''];
  if (rows.length) {
    lines.push(
      '| target | req/s | p50 ms | p99 ms | cost: CPU ms/op | DynamoDB Local CPU µs/req | non-2xx / errors |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
    );
  }
  if (result.comparison) {
    const { overhead, goal, met } = result.comparison;
    lines.push(
      `| **ratio** (API ÷ bare; req/s bare ÷ API) | **${overhead.throughput.toFixed(2)}x** | **${overhead.p50.toFixed(2)}x** | **${overhead.p99.toFixed(2)}x** | **${overhead.serverCpu.toFixed(2)}x** | | goal < ${goal}x: ${met ? 'met' : '**not met**'} |`,
    );
  }
  for (const table of result.tables ?? []) {
    lines.push(
      '',
      table.title,
      '',
      `| ${table.columns.join(' | ')} |`,
      `|${table.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
      ...table.rows.map((row) => `| ${row.join(' | ')} |`),
    );
  }
  for (const goal of result.goals ?? []) lines.push('', `Goal ${goal.goal}: ${goal.met ? 'met' : '**not met**'} (${goal.detail}).`);
  return lines.join('\n') + '\n';
}

/**
 * An operation's cost as docs/capacity.md prices it: the server's own CPU per answered request, in
 * milliseconds (the local gateway, the authorizer and the handler; DynamoDB Local's time, shown
 * apart, is not ours and is not Lambda time on AWS).
 */
function costOf(summary: LoadSummary): string {
  return (summary.serverCpuMicrosPerRequest / 1000).toFixed(2);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** DynamoDB Local is a java descendant of this process (under the shell that stops it with its
 * parent, local/child-process.ts); found through /proc on Linux. The shell's own command line names
 * DynamoDBLocal too: only the java process counts (the shell's CPU and 2 MiB were measured before). */
async function dynamoDbLocalPid(parent = process.pid): Promise<number | undefined> {
  try {
    const children = (await readFile(`/proc/${parent}/task/${parent}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    for (const pid of children) {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (cmdline.some((arg) => arg.includes('DynamoDBLocal'))) {
        if (/(^|\/)java$/.test(cmdline[0] ?? '')) return pid;
        const java = await dynamoDbLocalPid(pid);
        if (java !== undefined) return java;
      }
    }
  } catch {
    // not Linux, or no such file
  }
  return undefined;
}
