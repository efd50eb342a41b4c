import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBalance } from '#domain/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { compareTargets, overhead, type Target } from '../harness.ts';
import type { Scenario } from '../scenario.ts';

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
        notes: [
          "The local API caches authorizer answers for 60 s per (key, secret), as API Gateway does, so after the first request the key lookup is skipped, as in AWS.",
        ],
      };
    } finally {
      await bare.stop();
    }
  },
};

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
