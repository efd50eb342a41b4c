import { createDocumentClient } from '#adapters/dynamo/client';
import { checkAllLedgers } from '../checks.ts';
import { MixedGenerator, summariseMixed, type MixedCompany, type MixedSummary } from '../mixed.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, newCompany } from '../support.ts';
import type { LocalRuntime } from '#local/runtime';

const P99_LIMIT_MS = 250;
const STEP_SECONDS = Number(process.env.BENCH_KNEE_STEP_SECONDS ?? 10);
const RATES = (process.env.BENCH_KNEE_RATES ?? '10,20,30,40,50,60,70,80,100,130,160,200,250,300,400,500,650,800')
  .split(',')
  .map(Number)
  .filter((rate) => rate > 0);
const COMPANIES = 4;
const MAX_IN_FLIGHT = 256;

/** Companies for the mixed workload, each funded through the ledger and with one deposit to read. */
export async function mixedCompanies(runtime: LocalRuntime, label: string, count: number): Promise<MixedCompany[]> {
  const companies: MixedCompany[] = [];
  for (let i = 0; i < count; i++) {
    const credentials = await newCompany(runtime, `${label} ${i}`, '1000000000');
    const created = await apiClient(runtime.apiUrl, credentials)('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `${label.toLowerCase().replace(/\W+/g, '-')}-seed-${i}` });
    if (created.status !== 201) throw new Error(`POST /v1/deposits answered ${created.status}`);
    companies.push({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, depositIds: [String(created.body.data?.id)] });
  }
  return companies;
}

export function mixedRow(s: MixedSummary): (string | number)[] {
  return [s.rate, Math.round(s.requestsPerSecond), s.requests, Math.round(s.p50), Math.round(s.p99), Math.round(s.max), s.non2xx, s.errors, s.skipped];
}
export const MIXED_COLUMNS = ['ops/s offered', 'req/s answered', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'skipped (in flight ≥ 256)'];

/**
 * Issue 8, load knee: the mixed workload (bench/mixed-child.ts: reads, POST deposits, POST
 * withdrawals, quote + conversion over 4 funded companies) offered at increasing fixed rates, one
 * step of STEP_SECONDS each, until p99 passes 250 ms; the knee is the last rate with p99 within it.
 * Then every company's balance is checked against the sum of its ledger postings.
 */
export const loadKneeScenario: Scenario = {
  name: 'load-knee',
  title: 'Mixed workload at increasing fixed rates: the knee (p99 > 250 ms) and the ledger afterwards',
  async run({ runtime, log }) {
    const companies = await mixedCompanies(runtime, 'Bench Knee', COMPANIES);
    const generator = new MixedGenerator();
    const steps: MixedSummary[] = [];
    const failures: string[] = [];
    try {
      // A short warm-up so the first step does not pay for the first loads of every handler.
      await generator.run({ apiUrl: runtime.apiUrl, companies, rate: 10, seconds: 3, maxInFlight: MAX_IN_FLIGHT, tag: 'knee-warm' });
      for (const rate of RATES) {
        const result = await generator.run({ apiUrl: runtime.apiUrl, companies, rate, seconds: STEP_SECONDS, maxInFlight: MAX_IN_FLIGHT, tag: `knee-${rate}` });
        const summary = summariseMixed(rate, result);
        steps.push(summary);
        log(
          `  ${rate} ops/s: ${summary.requestsPerSecond.toFixed(0)} req/s, p50 ${summary.p50.toFixed(0)} ms, p99 ${summary.p99.toFixed(0)} ms, ` +
            `non-2xx ${summary.non2xx} ${JSON.stringify(summary.statusCodes)}, errors ${summary.errors}, skipped ${summary.skipped}`,
        );
        if (summary.p99 > P99_LIMIT_MS) break;
      }
    } finally {
      await generator.close();
    }
    const within = steps.filter((s) => s.p99 <= P99_LIMIT_MS);
    const knee = within.length ? within[within.length - 1]! : null;
    const passed = steps.some((s) => s.p99 > P99_LIMIT_MS);

    // Let in-flight work finish, then the ledger check over every company in the table.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const db = createDocumentClient(runtime.dynamoEndpoint);
    let ledger: { companies: number; mismatches: string[] };
    try {
      ledger = await checkAllLedgers(db, runtime.tableName);
    } finally {
      db.destroy();
    }
    if (ledger.mismatches.length) failures.push(`ledger: ${ledger.mismatches.length} mismatches: ${ledger.mismatches.slice(0, 3).join('; ')}`);
    const unexpected = steps.flatMap((s) => Object.keys(s.statusCodes).filter((code) => !['200', '201'].includes(code)).map((code) => `${s.rate}: ${code} x${s.statusCodes[code]}`));
    if (unexpected.length) failures.push(`answers other than 200/201: ${unexpected.join(', ')}`);

    return {
      name: 'load-knee',
      title: this.title,
      summaries: [],
      tables: [{ title: `Mixed workload, ${STEP_SECONDS} s per rate (an operation: one request, or quote + conversion)`, columns: MIXED_COLUMNS, rows: steps.map(mixedRow) }],
      goals: [
        {
          goal: `knee found (p99 > ${P99_LIMIT_MS} ms at some rate)`,
          met: passed,
          detail: knee
            ? `knee ${knee.rate} ops/s (${knee.requestsPerSecond.toFixed(0)} req/s answered, p99 ${knee.p99.toFixed(0)} ms)${passed ? `; next step p99 ${steps[steps.length - 1]!.p99.toFixed(0)} ms` : '; p99 never passed the limit in the rates tried'}`
            : `p99 over ${P99_LIMIT_MS} ms already at ${steps[0]?.rate} ops/s`,
        },
        { goal: 'every balance equals the sum of its ledger postings', met: ledger.mismatches.length === 0, detail: `${ledger.companies} companies checked: ${ledger.mismatches.length ? 'FAIL' : 'PASS'}` },
      ],
      failures,
      notes: [
        'Mix: GET /v1/company/balance 30 %, GET /v1/deposits/{id} 20 %, POST /v1/deposits 15 %, POST /v1/withdrawals (1.5 USDT + 1 USDT fee) 15 %, POST /v1/conversions/quote then POST /v1/conversions 20 %; round-robin over 4 companies funded with 1e9 USDT; open loop (operations start on schedule; over 256 waiting, skipped and counted).',
        `Answers other than 200/201: ${unexpected.length ? unexpected.join(', ') : 'none'}.`,
        'Chain jobs and webhook loops off here (the soak runs them). Generator in its own process; API and DynamoDB Local share 2 cores.',
      ],
    };
  },
};
