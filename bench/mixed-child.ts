import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { serveJobs } from './child-worker.ts';
import type { MixedJob, MixedResult } from './mixed.ts';

/**
 * The mixed workload's generator, in its own process (like load-child.ts): an open-loop, fixed-rate
 * sender. Operations start on schedule (rate per second, whatever the answers take) unless
 * `maxInFlight` are already waiting, in which case the operation is skipped and counted: a
 * server past its knee shows as latency, skips and errors, not as a slower generator.
 */
/** A withdrawal destination the local runtime never issues as a deposit address (a low index would
 * be one of the run's own deposits, and every withdrawal would pay it). */
const ADDRESS = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_100_000_000);

serveJobs(run);

type Kind = 'GET balance' | 'GET deposit' | 'POST deposit' | 'POST withdrawal' | 'POST quote + conversion';
/** Weights of the mix (sum 100). */
const MIX: [Kind, number][] = [
  ['GET balance', 30],
  ['GET deposit', 20],
  ['POST deposit', 15],
  ['POST withdrawal', 15],
  ['POST quote + conversion', 20],
];

async function run(job: MixedJob): Promise<MixedResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  let errors = 0;
  let skipped = 0;
  let inFlight = 0;
  let started = 0;
  let seq = 0;
  const depositIds = job.companies.map((company) => [...company.depositIds]);

  const request = async (company: MixedJob['companies'][number], method: string, path: string, body?: unknown) => {
    const t0 = performance.now();
    try {
      const response = await fetch(`${job.apiUrl}${path}`, {
        method,
        headers: { 'X-Api-Key': company.apiKey, 'X-Api-Secret': company.apiSecret, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const json = (await response.json()) as { data?: Record<string, unknown> };
      latencies.push(performance.now() - t0);
      statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
      return { status: response.status, data: json.data };
    } catch {
      errors++;
      return { status: 0, data: undefined };
    }
  };

  const operation = async () => {
    const n = seq++;
    const c = n % job.companies.length;
    const company = job.companies[c]!;
    let pick = (n * 7919) % 100;
    let kind: Kind = MIX[0]![0];
    for (const [k, weight] of MIX) {
      if (pick < weight) {
        kind = k;
        break;
      }
      pick -= weight;
    }
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    const tag = `${job.tag}-${n}`;
    if (kind === 'GET balance') await request(company, 'GET', '/company/balance');
    else if (kind === 'GET deposit') {
      const ids = depositIds[c]!;
      await request(company, 'GET', `/deposits/${ids[n % ids.length]}`);
    } else if (kind === 'POST deposit') {
      const answer = await request(company, 'POST', '/deposits', { method: 'usdt', network: 'tron', reference: tag, amount: '10' });
      if (answer.status === 201 && depositIds[c]!.length < 1000) depositIds[c]!.push(String(answer.data?.id));
    } else if (kind === 'POST withdrawal') {
      await request(company, 'POST', '/withdrawals', { method: 'usdt', network: 'tron', address: ADDRESS, amount: '1.5', reference: tag });
    } else {
      const quote = await request(company, 'POST', '/conversions/quote', { sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '1' });
      if (quote.status === 201) await request(company, 'POST', '/conversions', { quoteId: quote.data?.id, reference: tag });
    }
  };

  const pending = new Set<Promise<void>>();
  const t0 = performance.now();
  const end = t0 + job.seconds * 1000;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * job.rate);
    while (started < due) {
      started++;
      if (inFlight >= job.maxInFlight) {
        skipped++;
        continue;
      }
      inFlight++;
      const p = operation().finally(() => {
        inFlight--;
        pending.delete(p);
      });
      pending.add(p);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(pending);
  return { seconds, operations: started - skipped, skipped, latencies: Float64Array.from(latencies), statusCodes, errors, byKind };
}
