import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { compareTargets, type Target } from '../harness.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, authHeaders, newCompany, onlyStatus, perCallTable, requestsPerCall, underLoadRow } from '../support.ts';

const CALLS = 50;
/** Enough for every withdrawal of the run (each holds amount + the 1 USDT fee). */
const FUNDING_USDT = '1000000000';
const AMOUNT = '1.5';
// A payee outside Cambio: an index far past any the bench's deposits take (Cambio refuses its own deposit addresses as destinations).
const ADDRESS = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_100_000_001);

/**
 * POST /v1/withdrawals (reference claim, withdrawal, guarded hold of amount + fee on the balance,
 * ledger entry: one transaction) for a company funded through the ledger, with and without an
 * Idempotency-Key (unique per request), measured in alternating rounds; every answer must be 201.
 * Then the DynamoDB requests per call, counted over sequential calls, for both and GET /v1/withdrawals/{id}.
 */
export const withdrawalsScenario: Scenario = {
  name: 'withdrawals',
  title: 'POST /v1/withdrawals on the local runtime, without and with Idempotency-Key',
  async run({ runtime, load, settings, dynamoPid, log }) {
    const company = await newCompany(runtime, 'Bench Withdrawals', FUNDING_USDT);
    const api = apiClient(runtime.apiUrl, company);
    const body = (reference: string) => ({ method: 'usdt', network: 'tron', address: ADDRESS, amount: AMOUNT, reference });
    const failures: string[] = [];

    const first = await api('POST', '/withdrawals', body('bench-first'));
    const cachedAt = Date.now();
    if (first.status !== 201) throw new Error(`POST /v1/withdrawals answered ${first.status}: ${JSON.stringify(first.body)}`);
    const withdrawalId = String(first.body.data?.id);
    const plain = await requestsPerCall('POST /v1/withdrawals', CALLS, 201, (i) => api('POST', '/withdrawals', body(`bench-seq-${i}`)), cachedAt);
    const keyed = await requestsPerCall(
      'POST /v1/withdrawals + Idempotency-Key',
      CALLS,
      201,
      (i) => api('POST', '/withdrawals', body(`bench-seq-key-${i}`), { 'Idempotency-Key': `bench-seq-key-${i}` }),
      cachedAt,
    );
    const get = await requestsPerCall('GET /v1/withdrawals/{id}', CALLS, 200, () => api('GET', `/withdrawals/${withdrawalId}`), cachedAt);
    failures.push(...plain.failures, ...keyed.failures, ...get.failures);

    const headers = { ...authHeaders(company), 'Content-Type': 'application/json' };
    const withoutKey: Target = {
      label: 'POST /v1/withdrawals',
      url: `${runtime.apiUrl}/withdrawals`,
      method: 'POST',
      headers,
      body: JSON.stringify(body('bench-[<id>]')),
      idReplacement: true,
    };
    const withKey: Target = {
      ...withoutKey,
      label: 'POST /v1/withdrawals + Idempotency-Key',
      headers: { ...headers, 'Idempotency-Key': 'bench-key-[<id>]' },
    };
    const summaries = await compareTargets(load, [withoutKey, withKey], settings, { log, dynamoPid });
    for (const summary of summaries) failures.push(...onlyStatus(summary, 201));
    const [a, b] = summaries as [(typeof summaries)[0], (typeof summaries)[0]];

    return {
      name: 'withdrawals',
      title: this.title,
      summaries,
      tables: [
        perCallTable(`DynamoDB requests per call (${CALLS} sequential calls, authorizer answer cached)`, [plain.row, keyed.row, get.row]),
        perCallTable('DynamoDB requests per request while under load (measured rounds; calls = requests sent)', summaries.map(underLoadRow)),
      ],
      failures,
      notes: [
        `One company funded with ${FUNDING_USDT} USDT through the ledger module; each request withdraws ${AMOUNT} USDT (+ 1 USDT fee) to ${ADDRESS} with a unique reference (and, in the second target, a unique Idempotency-Key); all answers must be 201.`,
        `With the key vs without: req/s ${(b.requestsPerSecond / a.requestsPerSecond).toFixed(2)}x, p50 ${(b.latencyMs.p50 / a.latencyMs.p50).toFixed(2)}x.`,
        'Every withdrawal of one company updates the same balance item, so concurrent ones race: DynamoDB cancels the losers (TransactionConflict) and MoneyTransaction retries them; TransactWriteItems per 201 under load above 1 is those retries.',
        "The authorizer's GetItem is cached per key+secret for 60 s, as in API Gateway, so steady-state counts exclude it.",
      ],
    };
  },
};
