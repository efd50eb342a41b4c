import { compareTargets, type Target } from '../harness.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, authHeaders, newCompany, onlyStatus, perCallTable, requestsPerCall, underLoadRow } from '../support.ts';

const CALLS = 50;

/**
 * POST /v1/deposits (a new deposit address: counter UpdateItem, address derivation, one
 * transaction) under autocannon with a unique `reference` per request; every answer must be 201.
 * Then the DynamoDB requests per call, counted over sequential calls, for it and GET /v1/deposits/{id}.
 */
export const depositsScenario: Scenario = {
  name: 'deposits',
  title: 'POST /v1/deposits on the local runtime',
  async run({ runtime, load, settings, dynamoPid, log }) {
    const company = await newCompany(runtime, 'Bench Deposits');
    const api = apiClient(runtime.apiUrl, company);
    const failures: string[] = [];

    // Per-call counts first, while this company's authorizer answer is freshly cached.
    const first = await api('POST', '/deposits', { method: 'usdt', network: 'tron', reference: 'bench-first' });
    const cachedAt = Date.now();
    if (first.status !== 201) throw new Error(`POST /v1/deposits answered ${first.status}: ${JSON.stringify(first.body)}`);
    const depositId = String(first.body.data?.id);
    const post = await requestsPerCall('POST /v1/deposits', CALLS, 201, (i) => api('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `bench-seq-${i}` }), cachedAt);
    const keyed = await requestsPerCall(
      'POST /v1/deposits + Idempotency-Key',
      CALLS,
      201,
      (i) => api('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `bench-seq-key-${i}` }, { 'Idempotency-Key': `bench-seq-key-${i}` }),
      cachedAt,
    );
    const get = await requestsPerCall('GET /v1/deposits/{id}', CALLS, 200, () => api('GET', `/deposits/${depositId}`), cachedAt);
    failures.push(...post.failures, ...keyed.failures, ...get.failures);

    const target: Target = {
      label: 'POST /v1/deposits',
      url: `${runtime.apiUrl}/deposits`,
      method: 'POST',
      headers: { ...authHeaders(company), 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'usdt', network: 'tron', reference: 'bench-[<id>]' }),
      idReplacement: true,
    };
    const [summary] = await compareTargets(load, [target], settings, { log, dynamoPid });
    failures.push(...onlyStatus(summary!, 201));

    return {
      name: 'deposits',
      title: this.title,
      summaries: [summary!],
      tables: [
        perCallTable(`DynamoDB requests per call (${CALLS} sequential calls, authorizer answer cached)`, [post.row, keyed.row, get.row]),
        perCallTable('DynamoDB requests per request while under load (measured rounds; calls = requests sent)', [underLoadRow(summary!)]),
      ],
      failures,
      notes: [
        'Each request has a unique reference (autocannon idReplacement); all answers must be 201.',
        "POST: UpdateItem = the address-index counter (+ the idempotency record's answer with a key); TransactWriteItems = reference claim + deposit + address lookup; PutItem = the idempotency record's claim. The authorizer's GetItem is cached per key+secret for 60 s, as in API Gateway, so steady-state counts exclude it.",
      ],
    };
  },
};
