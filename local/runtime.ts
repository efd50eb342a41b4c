import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createCompany } from '#functions/companies/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { recordHotWalletFloat, type HotWalletFloat } from '#functions/ledger/floats';
import { createPublicClient, http } from 'viem';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import { scanCursorItem } from '#adapters/dynamo/items/chain-transfer';
import { readItem } from '#adapters/dynamo/queries';
import { evmLegacyScanCursorName, evmScanCursorName } from '#functions/networks/evm/from-settings';
import { STAGES } from '../config/stages.ts';
import { checkStageSettings, type StageFigures } from '#functions/settings/schema';
import { FIRST_TIER, RATE_LIMIT_TIERS, type RateLimit, type RateLimitTier, type RateLimitTiers } from '#functions/api-keys/rate-limits';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { startChainJobs, startWebhookLoops } from './job-loops.ts';
import { startCognitoEmulator } from './cognito-emulator.ts';
import { startEvmNetworks, type LocalEvmNetworks } from './evm-networks.ts';
import { startLocalSolana, type LocalSolana } from './solana-runtime.ts';
import type { SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { SOLANA_CURSOR_NAME } from '#functions/networks/solana/from-settings';
import type { NetworkName } from '#functions/networks/names';
import { resumeHotWalletNonces } from './evm-nonce-resume.ts';
import { loadDefaultScreeningLists } from './screening-defaults.ts';
import { DASHBOARD_DIST } from '../dashboard/build.ts';
import { LOCAL_TABLE_NAME, outboxOf, type RunningRuntime } from './runtime-files.ts';
import { lockDataFolder, writeAtomically, type DataFolderLock } from './data-folder.ts';
// Where the ops commands read them from without loading the runtime (./runtime-files.ts says why).
export { LOCAL_TABLE_NAME, outboxOf, type RunningRuntime };

/**
 * Throttles no single machine can reach, for what drives the local runtime hard on purpose: the
 * benchmarks (they measure the API, not the throttle) and the test suites. `npm start` enforces
 * the sandbox stage's (config/stages.ts).
 */
export const LOAD_TEST_RATE_LIMITS = {
  throttle: { rateLimit: 1_000_000, burstLimit: 1_000_000 },
  companyRateLimit: { rateLimit: 1_000_000, burstLimit: 1_000_000 },
} as const satisfies Pick<LocalRuntimeOptions, 'throttle' | 'companyRateLimit'>;

/** Where the local stage's mail goes for a data folder (`npm start`: .data/outbox/); the commands in ops/ write there too. */

export interface SandboxCredentials {
  companyId: string;
  apiKey: string;
  apiSecret: string;
}

export interface LocalRuntime {
  apiUrl: string;
  /** The dashboard app, or null when it is not built (`npm run build`). */
  dashboardUrl: string | null;
  /** The local Cognito emulator (local/cognito-emulator.ts). */
  cognitoEndpoint: string;
  dynamoEndpoint: string;
  tableName: string;
  sandbox: SandboxCredentials;
  /** True when this start created the sandbox company (first start on this data folder). */
  seeded: boolean;
  /** Where the local stage's mail (invitations, password resets, webhook alerts) is written as .eml files: .data/outbox/ under
   * `npm start`, a temporary folder, removed at stop, when the data is in memory. */
  outboxDir: string;
  /** The EVM networks opened, each on its anvil: what the stage's EVM_NETWORKS says of them. */
  evmNetworks: LocalEvmNetworks['settings'];
  /** Solana's local node, as the stage's SOLANA says it; null where Solana is not open. */
  solana: SolanaNetworkSettings | null;
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  /** Where DynamoDB Local keeps its files and the runtime its state; null keeps all in memory. */
  dataDir: string | null;
  port: number;
  host?: string;
  /** Use a DynamoDB Local that is already running (tests) instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  /** Overrides of the local stage's function settings (tests use faster sandbox blocks). */
  environment?: Partial<StageFigures>;
  /** How often the chain pollers run; 0 turns them off. Default 1 s. */
  pollIntervalMs?: number;
  /** How often the webhook dispatcher's catch-up pass looks for new events; 0 turns the dispatcher and the
   * sender off. Default 250 ms, so an event reaches its webhook well within 2 s. */
  webhookIntervalMs?: number;
  /** The stage's throttle (every request), instead of the local stage's, which is the sandbox's. */
  throttle?: RateLimit;
  /** Each company's rate limit whatever its tier, instead of the local stage's tiers, which are the sandbox's. */
  companyRateLimit?: RateLimit;
  /** The built dashboard app to serve at /dashboard/; defaults to dashboard/dist when it exists. */
  dashboardAppDir?: string | null;
  /** The EVM networks to open, each on an anvil node of its own (`npm start`: all four). None by
   * default: most tests need none, and four nodes per test runtime would slow every file. */
  evmNetworks?: readonly EvmNetworkName[];
  /** How often each EVM node's state is saved in the data folder while transactions are mined
   * (./evm-networks.ts CHAIN_SAVE_EVERY_MS); a test makes it long to lose more to a kill -9. */
  evmChainSaveEveryMs?: number;
  /** Opens Solana on its local node (./solana-runtime.ts; `npm start`: yes). Off by default, as the
   * EVM networks are. */
  solana?: boolean;
  /** Milliseconds between the Solana node's slots (400, mainnet's); null: they move only when a
   * test advances them. */
  solanaSlotIntervalMs?: number | null;
  /** Loads the shipped OFAC snapshot into the table (default: yes, screening is on from the first
   * start). False leaves the list as the table has it: a new table then has none, as a deployed
   * stage before its first import (tests of screening that is not available yet). */
  screeningDefaults?: boolean;
}

/**
 * Everything `npm start` runs, in this process: DynamoDB Local, the table, the seeded sandbox
 * company and the API. Handlers read their environment when first imported, so it is set before
 * the API loads them.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  let dynamo: DynamoDbLocal | undefined;
  let cognito: Awaited<ReturnType<typeof startCognitoEmulator>> | undefined;
  let evm: LocalEvmNetworks | undefined;
  let solana: LocalSolana | undefined;
  let temporaryOutbox: string | undefined;
  let gatewayDb: ReturnType<typeof createDocumentClient> | undefined;
  let reserved: Awaited<ReturnType<typeof reservePort>> | null = null;
  let dataFolder: DataFolderLock | null = null;
  /** The engines started so far, stopped (and the outbox and the data folder let go) after the API
   * and the loops: at stop, or when the start fails part way. */
  const stopEngines = async () => {
    gatewayDb?.destroy();
    await cognito?.stop();
    await evm?.stop();
    await solana?.stop();
    await dynamo?.stop();
    if (temporaryOutbox) rmSync(temporaryOutbox, { recursive: true, force: true });
    dataFolder?.release();
  };
  try {
    // The data folder, then the port, before any engine starts or any file is written: a second start
    // on a folder in use is told which runtime has it (whatever its port), and leaves it as it was.
    // The port is held by a listening probe until the API's server takes it: a port merely found free
    // while every handler loads (seconds) can be taken meanwhile by any process's outgoing connection.
    // Port 0 (the tests): any, reserved first, so that the lock names the URL it will serve at.
    const host = options.host ?? '127.0.0.1';
    if (options.port === 0) reserved = await reservePort(host, 0);
    const port = reserved?.port ?? options.port;
    if (options.dataDir) dataFolder = lockDataFolder(options.dataDir, `http://${host}:${port}/v1`);
    reserved ??= await reservePort(host, port);
    const dynamoEndpoint =
      options.dynamoEndpoint ??
      (dynamo = await startDynamoDbLocal({ dbPath: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined })).endpoint;
    await ensureTable(dynamoEndpoint, tableName);
    // Screening is on by default (../shared/networks.md): the shipped OFAC snapshot, loaded once.
    if (options.screeningDefaults !== false) await loadDefaultScreeningLists(dynamoEndpoint, tableName);
    const { sandbox, seeded } = await sandboxCompany(dynamoEndpoint, tableName, options.dataDir);
    cognito = await startCognitoEmulator({ dataDir: options.dataDir });
    const hotWalletKey = options.environment?.LOCAL_HOT_WALLET_KEY ?? STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!;
    evm = await startEvmNetworks(options.evmNetworks ?? [], { hotWalletKey, dataDir: options.dataDir, saveEveryMs: options.evmChainSaveEveryMs });
    await scanCursorsOnTheirChains(dynamoEndpoint, tableName, evm.settings, evm.restored);
    await resumeHotWalletNonces(dynamoEndpoint, tableName, evm.settings, hotWalletKey, evm.restored);
    await recordHotWalletFloats(dynamoEndpoint, tableName, evm.floats);
    // What the resume changed without a block (a fresh chain's nonce moved on): kept from now.
    await evm.save();
    if (options.solana) {
      solana = await startLocalSolana({ dataDir: options.dataDir, slotIntervalMs: options.solanaSlotIntervalMs });
      await solanaScanCursorOnItsChain(dynamoEndpoint, tableName, solana);
      if (solana.float) await recordHotWalletFloats(dynamoEndpoint, tableName, [solana.float]);
    }

    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = dynamoEndpoint;
    process.env.STAGE = 'local';
    // No CloudWatch here to read embedded metrics: leave them out of the console. Logs follow
    // LOG_LEVEL (INFO: a line per API request and per job run that did something).
    process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
    // The local stage's figures, checked against the settings schema as cdk synth checks a deployed
    // stage's; each handler then parses its own slice from this environment, as in Lambda.
    // EVM_NETWORKS names the nodes just started (none: '{}', whatever an earlier runtime in this process set);
    // SOLANA the Solana node (none: unset).
    const figures: StageFigures = {
      ...STAGES.local.functionEnvironment,
      EVM_NETWORKS: JSON.stringify(evm.settings),
      ...(solana && { SOLANA: JSON.stringify(solana.settings) }),
      ...options.environment,
    };
    const stage = checkStageSettings('local', figures);
    if (figures.SOLANA === undefined) delete process.env.SOLANA;
    Object.assign(process.env, figures);
    await recordHotWallets(dynamoEndpoint, tableName, hotWalletKey, Object.keys(stage.EVM_NETWORKS) as EvmNetworkName[], solana?.hotWallet);
    if ('value' in STAGES.local.depositAccountXpub) process.env.DEPOSIT_ACCOUNT_XPUB = STAGES.local.depositAccountXpub.value;
    process.env.STAGE_ENVIRONMENT = STAGES.local.environment;
    // The local stage mails into a folder (functions/adapters/mail/outbox-mailer.ts), never out.
    const outboxDir = options.dataDir ? outboxOf(options.dataDir) : (temporaryOutbox = mkdtempSync(join(tmpdir(), 'cambio-outbox-')));
    process.env.LOCAL_OUTBOX_DIR = outboxDir;
    // The dashboard's user pool: the emulator here, Cognito in AWS (same protocol, same verifier).
    Object.assign(process.env, {
      COGNITO_USER_POOL_ID: cognito.userPoolId,
      COGNITO_CLIENT_ID: cognito.clientId,
      COGNITO_ENDPOINT: cognito.endpoint,
      COGNITO_ISSUER: cognito.issuer,
    });
    // The dashboard's origin as in AWS (DASHBOARD_ORIGIN): mailed links and the CSRF origin check
    // use it, never the request's Host header, so the port is chosen before any handler loads.
    process.env.DASHBOARD_ORIGIN = `http://${host}:${port}`;
    const dashboardAppDir = options.dashboardAppDir === undefined ? (existsSync(join(DASHBOARD_DIST, 'index.html')) ? DASHBOARD_DIST : null) : options.dashboardAppDir;
    const { createLocalApi } = await import('./api-server.ts');
    const config = { ...STAGES.local, throttle: options.throttle ?? STAGES.local.throttle };
    const tiers = options.companyRateLimit ? everyTierAt(options.companyRateLimit) : STAGES.local.capacity.tiers;
    // The gateway's own client: it reads a company's tier as API Gateway knows a key's usage plan.
    gatewayDb = createDocumentClient(dynamoEndpoint);
    const profiles = new DynamoCompanyStore(gatewayDb, tableName);
    const tierOf = async (companyId: string) => (await profiles.getCompany(companyId))?.rateLimitTier ?? FIRST_TIER;
    const server = await createLocalApi({ config, dashboardAppDir, companyLimits: { tiers, tierOf } });
    await reserved.release();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const apiUrl = `http://${host}:${port}/v1`;
    const openNetworks: NetworkName[] = ['tron', ...(Object.keys(evm.settings) as EvmNetworkName[]), ...(solana ? (['solana'] as const) : [])];
    const pollers = startChainJobs(options.pollIntervalMs ?? 1000, openNetworks);
    const webhooks = await startWebhookLoops(options.webhookIntervalMs ?? 250);
    const stateFile = options.dataDir ? join(options.dataDir, 'runtime.json') : null;
    const state: RunningRuntime = { pid: process.pid, apiUrl, dynamoEndpoint, tableName, cognitoEndpoint: cognito.endpoint, evmNetworks: evm.settings, ...(solana && { solana: solana.settings }) };
    if (stateFile) writeAtomically(stateFile, JSON.stringify(state, null, 2));

    return {
      apiUrl,
      dashboardUrl: dashboardAppDir ? `http://${host}:${port}/dashboard/` : null,
      cognitoEndpoint: cognito.endpoint,
      dynamoEndpoint,
      tableName,
      sandbox,
      seeded,
      outboxDir,
      evmNetworks: evm.settings,
      solana: solana?.settings ?? null,
      stop: async () => {
        await pollers.stop();
        await webhooks.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (stateFile) rmSync(stateFile, { force: true });
        await stopEngines();
      },
    };
  } catch (error) {
    await reserved?.release();
    await stopEngines();
    throw error;
  }
}

/** One limit for every tier: what lifts the throttle for the benchmarks and test suites. */
function everyTierAt(limit: RateLimit): RateLimitTiers {
  return Object.fromEntries(RATE_LIMIT_TIERS.map((tier) => [tier, limit])) as Record<RateLimitTier, RateLimit>;
}

/**
 * The deposit scan on each local EVM node. A fresh chain (no data folder, or none saved in it) is
 * not the one a scan cursor kept in the table stood on: forgotten, the scan starts at the new
 * chain's head. A restored chain (./evm-chain-state.ts) is that one, and its scan goes on, unless
 * a kill -9 lost blocks the scan had read (the last save before it was behind): a cursor past the
 * restored head is forgotten too, or the blocks mined again below it would never be read.
 */
async function scanCursorsOnTheirChains(endpoint: string, tableName: string, networks: LocalEvmNetworks['settings'], restored: readonly EvmNetworkName[]): Promise<void> {
  const db = createDocumentClient(endpoint);
  try {
    for (const [name, network] of Object.entries(networks) as [EvmNetworkName, EvmNetworkSettings][]) {
      const head = restored.includes(name) ? Number(await createPublicClient({ transport: http(network.rpcUrl) }).getBlockNumber()) : null;
      // The cursor's name before it was one per chain too: a new cursor would start where it stood.
      for (const cursorName of [evmScanCursorName(name, network), evmLegacyScanCursorName(name, network)]) {
        const cursor = new DynamoScanCursor(db, tableName, cursorName);
        if (head === null) {
          await cursor.forget();
          continue;
        }
        const item = await readItem(db, tableName, scanCursorItem.key(cursorName));
        const nextBlock = item ? scanCursorItem.nextBlockOf(item) : null;
        if (nextBlock !== null && nextBlock > head + 1) await cursor.forget();
      }
    }
  } finally {
    db.destroy();
  }
}

/**
 * The deposit scan on the local Solana node, as on the EVM nodes (scanCursorsOnTheirChains): a new
 * chain is not the one a cursor kept in the table stood on, so the scan starts at its head; a
 * restored one goes on, unless the cursor is past its head (a kill -9 lost slots the scan read).
 */
async function solanaScanCursorOnItsChain(endpoint: string, tableName: string, solana: LocalSolana): Promise<void> {
  const db = createDocumentClient(endpoint);
  try {
    const cursor = new DynamoScanCursor(db, tableName, SOLANA_CURSOR_NAME);
    if (!solana.node.restored) return await cursor.forget();
    const item = await readItem(db, tableName, scanCursorItem.key(SOLANA_CURSOR_NAME));
    const nextBlock = item ? scanCursorItem.nextBlockOf(item) : null;
    if (nextBlock !== null && nextBlock > Number(solana.node.slot('confirmed')) + 1) await cursor.forget();
  } finally {
    db.destroy();
  }
}

/** The float each node's hot wallet was given when its chain began, in the ledger as Cambio's own
 * USDT (recorded once: a restored chain's is the one recorded at its first start): reconcile then balances. */
async function recordHotWalletFloats(endpoint: string, tableName: string, floats: HotWalletFloat[]): Promise<void> {
  const db = createDocumentClient(endpoint);
  try {
    const store = new DynamoFloatStore(db, tableName);
    for (const float of floats) await recordHotWalletFloat(store, float, new Date());
  } finally {
    db.destroy();
  }
}

/** The hot wallets as the withdrawal sender records them on its first run (functions/withdrawals/
 * refused-destinations.ts), before any test or person can send a withdrawal to one: the API refuses
 * them as destinations from the start, with the job loops off as they are in most tests. */
async function recordHotWallets(endpoint: string, tableName: string, hotWalletKey: string, evmNetworks: EvmNetworkName[], solanaHotWallet?: string): Promise<void> {
  const db = createDocumentClient(endpoint);
  try {
    const book = cambioAddressesOf(db, tableName);
    await book.record(await new LocalKeySigner(hotWalletKey).address(), { role: 'hot_wallet', network: 'tron' });
    for (const network of evmNetworks) await book.record(await localEvmSigner(hotWalletKey).address(), { role: 'hot_wallet', network });
    // Solana's hot wallet has a key of its own (an Ed25519 one: SOLANA.localHotWalletKey).
    if (solanaHotWallet) await book.record(solanaHotWallet, { role: 'hot_wallet', network: 'solana' });
  } finally {
    db.destroy();
  }
}

/** The sandbox company is made once per data folder; its credentials are kept beside the data so
 * later starts can print them again (a local convenience: deployed stages never store a secret). */
async function sandboxCompany(
  endpoint: string,
  tableName: string,
  dataDir: string | null,
): Promise<{ sandbox: SandboxCredentials; seeded: boolean }> {
  const file = dataDir ? join(dataDir, 'sandbox-company.json') : null;
  if (file && existsSync(file)) return { sandbox: JSON.parse(readFileSync(file, 'utf8')) as SandboxCredentials, seeded: false };
  const db = createDocumentClient(endpoint);
  const { company, credentials } = await createCompany(new DynamoCompanyStore(db, tableName), {
    name: 'Sandbox Company',
    environment: 'sandbox',
  });
  db.destroy();
  const sandbox = { companyId: company.id, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(sandbox, null, 2), { mode: 0o600 });
  }
  return { sandbox, seeded: true };
}

/** The runtime's port (0: any, the tests'), held by a listening probe until `release`, just before
 * the runtime's server listens on it; EADDRINUSE when it is taken. */
async function reservePort(host: string, port: number): Promise<{ port: number; release(): Promise<void> }> {
  // A connection while it is held (a dashboard tab left open, an app polling the port) is dropped at
  // once: left open, it would keep close() from calling back, and the start would wait on it.
  const probe = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(port, host, resolve);
  });
  return { port: (probe.address() as AddressInfo).port, release: () => new Promise<void>((resolve) => probe.close(() => resolve())) };
}
