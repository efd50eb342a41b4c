import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { cambioFunctions } from '../support/stack-functions.ts';
import { AUTHORIZER, DASHBOARD_API, DASHBOARD_DOWNLOADS, DASHBOARD_SIMULATOR, ROUTES, SESSION_AUTHORIZER, lambdaName, JOBS } from '../../functions/routes.ts';

/** The API-function size goal (the routes, the dashboard's downloads, and both authorizers): small bundles keep cold starts short.
 * 300 KB until Solana: a route that takes an address checks a Solana wallet's bytes are a point of
 * Ed25519 (@noble/curves' ed25519, ~24 KB with its map; not @solana/kit's check, whose error
 * messages alone are 35 KB), so 330 KB; 340 KB since a withdrawal's Solana destination is read on
 * the chain (functions/networks/solana/destinations.ts: a getAccountInfo and the associated token
 * account's derivation on the hash and curve already there, ~9 KB with its map; kit would be ~130 KB).
 * 345 KB since screening fails closed while the list was never loaded (503 SCREENING_UNAVAILABLE:
 * ~1.4 KB with its map, create-withdrawal at ~349,000 bytes). */
const MAX_BUNDLE_BYTES = 345 * 1024;
/** Deposit creation derives an address on any of five networks: TRON's HD derivation (secp256k1,
 * BIP32: ~300 KB with the source map alone) and the four EVM networks' CREATE2 forwarder addresses,
 * done on the keccak it already carried rather than viem (functions/networks/evm/evm-address.ts),
 * came to ~317 KB, and to ~345 KB once a split's address is checked against the destinations Cambio
 * refuses (functions/withdrawals/refused-destinations.ts: its own addresses in either form, the
 * stage's contracts, unspendable ones; ~11 KB with the source map), and to ~368 KB with the balance
 * shards every money transaction places (adapters/dynamo/balance-shards.ts, items/balance.ts) and the
 * stage's rate limit tiers in its settings. */
// 375 KB until Solana's address check (above) and its deposit owners' record (~8 KB): 410 KB; 420 KB
// once the route's idempotency wrapper logs an answer it could not store (session 38: 419,848 bytes).
const MAX_DEPOSIT_CREATION_BUNDLE_BYTES = 420 * 1024;
/** The dashboard API's one Lambda serves every dashboard route but the simulator and the downloads.
 * It came to ~922 KB with its source map while it carried the simulator and so the sandbox chains
 * (TRON's secp256k1 and address derivation, viem's JSON-RPC client and ABI encoding for the local EVM
 * nodes), and to ~967 KB once the simulator paid on the local Solana node (with a transaction it
 * encoded by hand to stay small); since the simulator has a
 * function of its own (DASHBOARD_SIMULATOR, its module out of functions/handlers/dashboard/, which
 * the one Lambda bundles whole), ~711 KB: the dashboard's routes themselves (people, the Webhooks
 * pages with the sealer and the delivery queue, mail, the allowlist and the daily limit with the
 * destinations Cambio refuses, the balance shards), and Solana's address check (@noble/curves'
 * ed25519). It is off /v1's request path and a person's clicks, not an integrator's calls, wait on
 * its cold start. 730 KB since New withdrawal and the allowlist read a Solana destination on the chain (~9 KB);
 * 750 KB since its sessions keep Cognito's tokens sealed (the session sealer over the webhook sealers'
 * code) and a route acts only on the session its authorizer verified (~17 KB: 747 KB). 760 KB since an
 * app's replacement asks the proof before its set-up and is confirmed only where one was begun so, and
 * every create writes its Idempotency-Key answer in its own transaction (~3 KB: 751 KB). */
const MAX_DASHBOARD_API_BUNDLE_BYTES = 760 * 1024;
/** The dashboard's `Simulate payment` (sandbox companies only) pays on every network's sandbox chain:
 * TRON's in the table (secp256k1, BIP32), viem for the local EVM nodes (~130 KB with its source map),
 * and @solana/kit with the Token and Memo programs' clients and Solana's chain adapter for the local
 * Solana node (~285 KB with its source map, kit's error messages ~40 KB of it): ~832 KB. A click on
 * that button alone waits on its cold start. */
const MAX_DASHBOARD_SIMULATOR_BUNDLE_BYTES = 850 * 1024;
/** The other jobs (deposit poller, webhook dispatcher and sender, reconcile, finance export check) run
 * on schedules, streams and queues, where a cold start costs no caller; they carry Powertools' logger
 * and metrics (~82 KB with the source map) and its tracer with the X-Ray SDK (~290 KB), which the API
 * handlers and the authorizer leave out to stay under 300 KB (functions/http/access-log.ts,
 * functions/handlers/auth/authorizer.ts). 600 KB before the tracer; it took the deposit poller to 652 KB. */
const MAX_JOB_BUNDLE_BYTES = 700 * 1024;
/** The jobs that read every network's chain (the deposit poller, reconcile) carry TronGrid's client,
 * the sandbox chain and viem's JSON-RPC client with its ABI decoding (~1 MB with the source map, from
 * ~690 KB for TRON alone). They run on schedules, where a cold start costs no caller. 1.2 MB until
 * Solana's chain reader (@solana/kit's JSON-RPC client, ~200 KB with its map:
 * functions/networks/solana/rpc-chain.ts) joined them: 1.45 MB; 1.5 MB since reconcile reached
 * 1,485,434 bytes (lagging-provider checks, replaced payouts, base-unit dust, every Solana payer),
 * a scheduled job's growth that costs no caller, with room for the next network's reader. */
const MAX_CHAIN_JOB_WITH_SOLANA_BYTES = 1_500 * 1024;
/** The withdrawal sender and the sweeper bundle tronweb to build transactions (~1.2 MB, it does not tree-shake:
 * ../shared/tron-notes.md, Size); it runs on a schedule, where a cold start costs no customer. 4 MB
 * until Solana's sending and sweeps (kit, the Token, Memo and Compute Budget clients, SLIP-0010
 * derivation: ~230 KB with the source map): 4.5 MB. */
const MAX_SENDER_WITH_SOLANA_BYTES = 4.5 * 1024 * 1024;
/** The daily ledger CSV job bundles the AWS SDK (S3, lib-storage) rather than take the runtime's
 * (lib/cambio-stack.ts ledgerCsvJob): it runs once a day, where a cold start costs no one. */
const MAX_SELF_CONTAINED_JOB_BYTES = 2 * 1024 * 1024;

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** An asset's bytes as deployed, with its source map's `sources` counted as repository paths: esbuild
 * writes them relative to the output folder, so the same code would weigh more from a clone at a
 * deeper path (a clean clone under /check/work/main came out 11 bytes over a budget it met here). */
function assetBytes(assetDir: string): number {
  return readdirSync(assetDir).reduce((sum, file) => {
    const filePath = path.join(assetDir, file);
    if (!file.endsWith('.map')) return sum + statSync(filePath).size;
    const map = JSON.parse(readFileSync(filePath, 'utf8')) as { sources: string[] };
    map.sources = map.sources.map((source) => path.relative(repoRoot, path.resolve(assetDir, source)));
    return sum + Buffer.byteLength(JSON.stringify(map));
  }, 0);
}

const outdir = mkdtempSync(path.join(tmpdir(), 'cambio-cdk-'));
let template: Template;
// One synth as `cdk synth` does it, with every bundle built (esbuild for the functions, the dashboard app).
beforeAll(() => {
  const app = new App({ context: { stage: 'sandbox' }, outdir });
  template = Template.fromStack(addCambioStack(app));
  app.synth();
}, 300_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

it('bundles every function with esbuild into an ESM asset: API functions under 345 KB (deposit creation 420 KB, the dashboard API 760 KB, its simulator 850 KB), jobs under 700 KB (those reading every chain 1.5 MB), the signing jobs (tronweb and its source map) under 4.5 MB, the ledger CSV job with its own AWS SDK under 2 MB', () => {
  const functions = Object.entries(cambioFunctions(template.findResources('AWS::Lambda::Function')));
  const sizes: Record<string, number> = {};
  expect(functions.length).toBeGreaterThan(0);
  for (const [id, fn] of functions) {
    const s3Key: string = fn.Properties.Code.S3Key;
    const assetDir = path.join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);
    const code = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
    const bytes = assetBytes(assetDir);

    const named = (handler: string) => String(fn.Properties.FunctionName).endsWith(`-${lambdaName(handler)}`);
    const isSender = [JOBS.withdrawalSender, JOBS.depositSweeper].some((job) => named(job.handler));
    const isApi = [...ROUTES, AUTHORIZER, DASHBOARD_API, DASHBOARD_SIMULATOR, ...DASHBOARD_DOWNLOADS, SESSION_AUTHORIZER].some((route) => named(route.handler));
    const isLedgerCsv = named(JOBS.ledgerDayCsv.handler);
    const readsEveryChain = [JOBS.depositPoller, JOBS.reconcile].some((job) => named(job.handler));
    const budget = (() => {
      if (isSender) return MAX_SENDER_WITH_SOLANA_BYTES;
      if (isLedgerCsv) return MAX_SELF_CONTAINED_JOB_BYTES;
      if (readsEveryChain) return MAX_CHAIN_JOB_WITH_SOLANA_BYTES;
      if (named(DASHBOARD_API.handler)) return MAX_DASHBOARD_API_BUNDLE_BYTES;
      if (named(DASHBOARD_SIMULATOR.handler)) return MAX_DASHBOARD_SIMULATOR_BUNDLE_BYTES;
      if (named('deposits/create-deposit')) return MAX_DEPOSIT_CREATION_BUNDLE_BYTES;
      return isApi ? MAX_BUNDLE_BYTES : MAX_JOB_BUNDLE_BYTES;
    })();
    // Soft: one run names every bundle over its budget, not the first alone.
    expect.soft(bytes, `${id}: asset is ${bytes} bytes`).toBeLessThan(budget);
    sizes[String(fn.Properties.FunctionName)] = bytes;
    // tronweb stays out of everything but the sender.
    if (!isSender) expect(code, `${id}: bundles tronweb`).not.toMatch(/TronWeb/);
    // The X-Ray SDK (Powertools' tracer) is in every job and in nothing on a request's path.
    if (isApi) expect(code, `${id}: bundles the X-Ray SDK`).not.toMatch(/AWS_XRAY_DAEMON_ADDRESS/);
    else expect(code, `${id}: no X-Ray SDK`).toMatch(/AWS_XRAY_DAEMON_ADDRESS/);
    // The runtime's SDK serves every function but the ledger CSV job, which imports none of it.
    const runtimeSdkImports = code.match(/from\s*["']@aws-sdk\/[^"']+["']/g) ?? [];
    if (isLedgerCsv) expect(runtimeSdkImports, `${id}: takes the runtime's AWS SDK`).toEqual([]);
    else expect(runtimeSdkImports.length, `${id}: bundles the AWS SDK`).toBeGreaterThan(0);
    // Lambda calls `index.handler`; minification must keep the export's name.
    expect(code, `${id}: no handler export`).toMatch(/export\s*\{[^}]*\bas handler\b[^}]*\}/);
    // package.json `imports` aliases were resolved by esbuild, not left for Lambda to fail on.
    expect(code, `${id}: unresolved #alias import`).not.toMatch(/from\s*["']#/);
    expect(code.startsWith('import { createRequire')).toBe(true);
  }
  if (process.env.PRINT_BUNDLE_SIZES) console.log(JSON.stringify(sizes, null, 1));
  // Every route has its API budget applied (a renamed route would otherwise fall to the job budget).
  for (const route of [...ROUTES, AUTHORIZER, DASHBOARD_API, DASHBOARD_SIMULATOR, SESSION_AUTHORIZER]) expect(Object.keys(sizes).some((name) => name.endsWith(`-${lambdaName(route.handler)}`)), route.handler).toBe(true);
}, 300_000);

it('builds the dashboard app at synth into the asset cdk deploy uploads: index.html and the script and stylesheet it names', () => {
  const keys = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((upload) => upload.Properties.SourceObjectKeys[0] as string);
  expect(new Set(keys).size).toBe(1);
  const assetDir = path.join(outdir, `asset.${keys[0]!.replace(/\.zip$/, '')}`);
  const html = readFileSync(path.join(assetDir, 'index.html'), 'utf8');
  const named = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/app-[0-9a-f]{10}\.(?:js|css))"/g)].map((match) => match[1]!);
  expect(named.map((file) => path.extname(file)).sort()).toEqual(['.css', '.js']);
  for (const file of named) expect(statSync(path.join(assetDir, file)).size, file).toBeGreaterThan(1000);
  expect(readdirSync(path.join(assetDir, 'assets')).sort()).toEqual(named.map((file) => path.basename(file)).sort());
});
