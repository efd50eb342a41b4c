import { createCompany } from '#functions/companies/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import type { LocalRuntime, SandboxCredentials } from '#local/runtime';
import { dynamoRequestsSince, snapshotDynamoRequests, type LoadSummary } from './harness.ts';
import type { ResultTable } from './scenario.ts';
import { creditAvailable } from '../test/support/ledger.ts';

/**
 * Helpers the route scenarios share: a company of their own (so the authorizer cache starts cold
 * at a known moment), funding through the ledger module, a small API client, and DynamoDB requests
 * per call counted from `dynamoRequestCounts`.
 */

/** The local API caches an authorizer answer this long (STAGES.local.authorizerCacheSeconds). */
const AUTHORIZER_CACHE_MS = 60_000;

/** A new sandbox company on the runtime's table, optionally funded with USDT. */
export async function newCompany(runtime: LocalRuntime, name: string, fundUsdt?: string): Promise<SandboxCredentials> {
  const db = createDocumentClient(runtime.dynamoEndpoint);
  try {
    const { company, credentials } = await createCompany(new DynamoCompanyStore(db, runtime.tableName), { name, environment: 'sandbox' });
    if (fundUsdt) await creditAvailable(db, runtime.tableName, company.id, 'USDT', fundUsdt);
    return { companyId: company.id, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
  } finally {
    db.destroy();
  }
}

export const authHeaders = (credentials: SandboxCredentials) => ({ 'X-Api-Key': credentials.apiKey, 'X-Api-Secret': credentials.apiSecret });

export interface ApiAnswer {
  status: number;
  body: { success: boolean; data?: Record<string, unknown>; error?: unknown };
}

export function apiClient(apiUrl: string, credentials: SandboxCredentials) {
  return async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { ...authHeaders(credentials), ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
  };
}

/** What one route cost in DynamoDB requests, per call, by operation. */
export interface PerCallRow {
  label: string;
  calls: number;
  /** Requests by operation, summed over the calls. */
  requests: Record<string, number>;
}

/**
 * Runs `call` `calls` times one after another and counts the DynamoDB requests they sent. Every
 * answer must have `expectedStatus`. The authorizer's key lookup must not fall in the window: the
 * caller makes one call first (which caches the answer) and the window must end within the cache's
 * 60 s, or the counts would include a GetItem that steady state does not have.
 */
export async function requestsPerCall(
  label: string,
  calls: number,
  expectedStatus: number,
  call: (i: number) => Promise<ApiAnswer>,
  authorizerCachedAt: number,
): Promise<{ row: PerCallRow; failures: string[] }> {
  const failures: string[] = [];
  const before = snapshotDynamoRequests();
  for (let i = 0; i < calls; i++) {
    const answer = await call(i);
    if (answer.status !== expectedStatus && failures.length < 3) {
      failures.push(`${label}: call ${i} answered ${answer.status} (expected ${expectedStatus}): ${JSON.stringify(answer.body)}`);
    }
  }
  const requests = dynamoRequestsSince(before);
  if (Date.now() - authorizerCachedAt >= AUTHORIZER_CACHE_MS) {
    failures.push(`${label}: the authorizer cache may have expired during the count; the counts may include its GetItem`);
  }
  return { row: { label, calls, requests }, failures };
}

/** A row per route, a column per DynamoDB operation seen, per-call averages. */
export function perCallTable(title: string, rows: readonly PerCallRow[]): ResultTable {
  const operations = [...new Set(rows.flatMap((row) => Object.keys(row.requests)))].sort();
  return {
    title,
    columns: ['route', 'calls', ...operations.map(operationName), 'total per call'],
    rows: rows.map((row) => {
      const perCall = (n: number) => formatRate(n / row.calls);
      const total = Object.values(row.requests).reduce((sum, n) => sum + n, 0);
      return [row.label, row.calls, ...operations.map((operation) => perCall(row.requests[operation] ?? 0)), perCall(total)];
    }),
  };
}

/** The DynamoDB requests the servers sent during a target's measured rounds, per request sent
 * (answered ones plus the few in flight when a round stopped, which the servers finish). */
export function underLoadRow(summary: LoadSummary): PerCallRow {
  return { label: `${summary.label} (under load)`, calls: summary.sent, requests: summary.dynamoRequests };
}

/** The SDK's command name without its suffix: GetItemCommand → GetItem. */
export const operationName = (command: string) => command.replace(/Command$/, '');

/** 1, 1.02, 0.0004: exact integers stay integers; fractions keep two significant digits. */
export function formatRate(value: number): string {
  if (Number.isInteger(value)) return String(value);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/** A target answered only `status` (e.g. every POST a 201): anything else is a failure. */
export function onlyStatus(summary: LoadSummary, status: number): string[] {
  const others = Object.entries(summary.statusCodes).filter(([code]) => Number(code) !== status);
  if (others.length === 0 && summary.requests > 0) return [];
  summary.flagged = true;
  return [`${summary.label}: expected only ${status} answers, saw ${JSON.stringify(summary.statusCodes)}`];
}
