import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { createCompany, type Company } from '#functions/companies/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { afterAll, beforeAll, inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { LOAD_TEST_RATE_LIMITS, startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '#local/runtime';

/**
 * The local runtime (same authorizer, handlers and gateway responses as in AWS) on a free port,
 * over the run's DynamoDB Local with a table of its own. Requests go through a real socket. Its
 * throttles are out of reach (tests drive one company hard), unless a test sets its own limits or
 * asks for `npm start`'s, the sandbox stage's (`stageRateLimits`).
 */
export async function startTestApi(
  options: Partial<Pick<LocalRuntimeOptions, 'dynamoEndpoint' | 'environment' | 'pollIntervalMs' | 'webhookIntervalMs' | 'throttle' | 'companyRateLimit' | 'dashboardAppDir' | 'evmNetworks' | 'solana' | 'solanaSlotIntervalMs' | 'dataDir' | 'screeningDefaults'>> & { stageRateLimits?: boolean } = {},
): Promise<LocalRuntime> {
  const { stageRateLimits, ...overrides } = options;
  return startLocalRuntime({
    dataDir: null,
    port: 0,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `e2e-${randomUUID()}`,
    // The chain pollers run only where a test asks for them.
    pollIntervalMs: 0,
    // So do the webhook dispatcher and sender.
    webhookIntervalMs: 0,
    ...(!stageRateLimits && LOAD_TEST_RATE_LIMITS),
    ...overrides,
    // Sign-up's one-second floor (SIGN_UP_ANSWER_MS) would cost a second per signed-up person in
    // every file; test/integration/attacks-sign-up.test.ts runs with the stage's and checks it.
    environment: { SIGN_UP_ANSWER_MS: '0', ...overrides.environment },
  });
}

/** startTestApi with a document client on the run's DynamoDB Local, for tests that read the table. */
export async function startTestApiWithClient(options: Parameters<typeof startTestApi>[0] = {}): Promise<{ runtime: LocalRuntime; db: DynamoDBDocumentClient }> {
  const runtime = await startTestApi(options);
  return { runtime, db: createDocumentClient(runtime.dynamoEndpoint) };
}

/**
 * A test file's local runtime and document client: started before its first test, stopped after its
 * last. `stores` makes what the file reads or writes the table through, once both exist. The fields
 * are there once the tests run.
 */
export function useTestApi<Stores extends object = object>(
  stores?: (db: DynamoDBDocumentClient, tableName: string) => Stores,
  options: Parameters<typeof startTestApi>[0] = {},
): { runtime: LocalRuntime; db: DynamoDBDocumentClient } & Stores {
  const api = {} as { runtime: LocalRuntime; db: DynamoDBDocumentClient } & Stores;
  beforeAll(async () => {
    Object.assign(api, await startTestApiWithClient(options));
    if (stores) Object.assign(api, stores(api.db, api.runtime.tableName));
  });
  afterAll(() => stopTestApi(api.runtime, api.db));
  return api;
}

/** The other half: the client closed, the runtime stopped (either may be missing if the start failed). */
export async function stopTestApi(runtime: LocalRuntime | undefined, db?: DynamoDBDocumentClient): Promise<void> {
  db?.destroy();
  await runtime?.stop();
}

export interface ApiCall {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export function apiClient(runtime: LocalRuntime, credentials: { apiKey: string; apiSecret: string } = runtime.sandbox) {
  return async function call(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<ApiCall> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== false) {
      headers['X-Api-Key'] ??= credentials.apiKey;
      headers['X-Api-Secret'] ??= credentials.apiSecret;
    }
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${runtime.apiUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}

/** A company of its own (with its key) on the runtime's table, so a test's balances start at zero
 * and tests cannot disturb each other. */
export async function newCompany(runtime: LocalRuntime, name: string, environment: Company['environment'] = 'sandbox') {
  const db = createDocumentClient(runtime.dynamoEndpoint);
  const { company, credentials } = await createCompany(new DynamoCompanyStore(db, runtime.tableName), { name, environment });
  return { companyId: company.id, credentials, call: apiClient(runtime, credentials) };
}

/** The local runtime with its chain jobs on, over sandbox blocks of 50 ms (19 confirmations in about
 * a second), and a handle on that sandbox chain to pay deposits and read receipts. */
export async function startFastChainApi(): Promise<{ runtime: LocalRuntime; chain: SandboxChain }> {
  const blockIntervalMs = 50;
  const runtime = await startTestApi({ environment: { SANDBOX_BLOCK_INTERVAL_MS: String(blockIntervalMs) }, pollIntervalMs: 100 });
  const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs, solidifyAfter: 19 });
  return { runtime, chain };
}

/**
 * A test file's runtime on the fast chain: started before its first test, stopped after its last.
 * Its fields are there once the tests run: the runtime, a client for the sandbox company's key, and
 * the chain to mine on.
 */
export function useFastChainApi(): { runtime: LocalRuntime; call: ReturnType<typeof apiClient>; chain: SandboxChain } {
  const api = {} as { runtime: LocalRuntime; call: ReturnType<typeof apiClient>; chain: SandboxChain };
  beforeAll(async () => {
    Object.assign(api, await startFastChainApi());
    api.call = apiClient(api.runtime);
  });
  afterAll(() => api.runtime?.stop());
  return api;
}

/** Puts `amount` USDT on the local hot wallet, as a treasury top-up would: the sandbox chain keeps
 * balances, so a withdrawal leaves only when the hot wallet holds what it pays (tests that credit a
 * company through the ledger back that credit on chain with this). */
export async function fundHotWallet(runtime: LocalRuntime, amount: string): Promise<void> {
  // The runtime's own block interval (startLocalRuntime puts its settings in this process's environment).
  const blockIntervalMs = Number(process.env.SANDBOX_BLOCK_INTERVAL_MS ?? STAGES.local.functionEnvironment.SANDBOX_BLOCK_INTERVAL_MS);
  const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs, solidifyAfter: 19 });
  await chain.submitTransfer({
    contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
    from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_101),
    to: await new LocalKeySigner(STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!).address(),
    amount: parseAmount(amount, 'USDT'),
  });
}
