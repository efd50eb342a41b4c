import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBalance } from '#functions/companies/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import type { LocalRuntime } from '#local/runtime';
import { compareTargets, dynamoRequestsSince, overhead, snapshotDynamoRequests, type Target } from '../harness.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, newCompany, perCallTable, requestsPerCall } from '../support.ts';

const CALLS = 50;

export const OVERHEAD_GOAL = 1.3;

/**
 * GET /v1/company/balance on the local runtime (gateway stand-in, authorizer with its cache, the
 * Middy route, the envelope) beside a bare node:http server that does the same DynamoDB read
 * for the same company, through the same document client factory, and answers the same JSON.
 * The ratio between the two is what our layers cost on top of the read.
 */
export const balanceScenario: Scenario = {
  name: 'balance',
  title: 'GET /v1/company/balance vs bare node:http + same DynamoDB read',
  async run({ runtime, load, settings, dynamoPid, log }) {
    const bare = await startBareBalanceServer(runtime.dynamoEndpoint, runtime.tableName, runtime.sandbox.companyId);
    try {
      const api: Target = {
        label: 'API (local runtime)',
        url: `${runtime.apiUrl}/company/balance`,
        headers: { 'X-Api-Key': runtime.sandbox.apiKey, 'X-Api-Secret': runtime.sandbox.apiSecret },
      };
      const baseline: Target = { label: 'bare node:http', url: bare.url };
      await assertSameAnswer(api, baseline);
      const [apiSummary, bareSummary] = await compareTargets(load, [api, baseline], settings, { log, dynamoPid });
      const ratios = overhead(apiSummary!, bareSummary!);
      const perCall = await balanceRequestsPerCall(runtime);
      return {
        name: 'balance',
        title: this.title,
        summaries: [apiSummary!, bareSummary!],
        comparison: {
          subject: api.label,
          baseline: baseline.label,
          overhead: ratios,
          goal: OVERHEAD_GOAL,
          met: ratios.throughput < OVERHEAD_GOAL && ratios.p50 < OVERHEAD_GOAL,
        },
        tables: [perCall.table],
        failures: perCall.failures,
        notes: [
          "The local API caches authorizer answers for 60 s per (key, secret), as API Gateway does, so after the first request the key lookup is skipped, as in AWS.",
        ],
      };
    } finally {
      await bare.stop();
    }
  },
};

/** GET /v1/company/balance's DynamoDB requests: the first call on a new key (authorizer cache
 * miss) and then sequential calls with the answer cached. */
async function balanceRequestsPerCall(runtime: LocalRuntime) {
  const company = await newCompany(runtime, 'Bench Balance');
  const api = apiClient(runtime.apiUrl, company);
  const before = snapshotDynamoRequests();
  const first = await api('GET', '/company/balance');
  const cachedAt = Date.now();
  const cold = { label: 'GET /v1/company/balance, first call on a new key (authorizer cache miss)', calls: 1, requests: dynamoRequestsSince(before) };
  const warm = await requestsPerCall('GET /v1/company/balance', CALLS, 200, () => api('GET', '/company/balance'), cachedAt);
  const failures = first.status === 200 ? warm.failures : [`GET /v1/company/balance answered ${first.status}`, ...warm.failures];
  return { table: perCallTable('DynamoDB requests per call', [cold, warm.row]), failures };
}

/** No auth, no Middy, no proxy event: the read, the same view, JSON.stringify. */
async function startBareBalanceServer(
  endpoint: string,
  tableName: string,
  companyId: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const db = createDocumentClient(endpoint);
  const store = new DynamoCompanyStore(db, tableName);
  const server: Server = createServer((_req, res) => {
    getBalance(store, companyId).then(
      (data) => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ success: true, data }));
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/balance`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.destroy();
    },
  };
}

/** Both servers must answer 200 with the same data, or the comparison means nothing. */
async function assertSameAnswer(api: Target, baseline: Target): Promise<void> {
  const fetchData = async (target: Target) => {
    const response = await fetch(target.url, { headers: target.headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${target.label} answered ${response.status}: ${text}`);
    return JSON.stringify((JSON.parse(text) as { data: unknown }).data);
  };
  const [a, b] = await Promise.all([fetchData(api), fetchData(baseline)]);
  if (a !== b) throw new Error(`The API and the bare server disagree:\n${a}\n${b}`);
}
