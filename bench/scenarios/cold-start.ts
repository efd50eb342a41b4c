import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { AUTHORIZER, ROUTES, JOBS } from '#functions/routes';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import type { ResultTable, Scenario } from '../scenario.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const API_BUDGET_BYTES = 300 * 1024;
const LOAD_RATIO_GOAL = 1.5;
/** As lib/api-function.ts: ESM output cannot `require`, so a createRequire banner. */
const BANNER = "import { createRequire as __cambioCreateRequire } from 'node:module'; const require = __cambioCreateRequire(import.meta.url);";

/** What a bare client bundle creates at module scope, per SDK package a function bundles. */
const BARE_CLIENTS: Record<string, string> = {
  '@aws-sdk/client-dynamodb':
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'; globalThis.__c1 = DynamoDBDocumentClient.from(new DynamoDBClient({}));",
  '@aws-sdk/client-kms': "import { KMSClient } from '@aws-sdk/client-kms'; globalThis.__c2 = new KMSClient({});",
  '@aws-sdk/client-sqs': "import { SQSClient } from '@aws-sdk/client-sqs'; globalThis.__c3 = new SQSClient({});",
  '@aws-sdk/client-secrets-manager': "import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager'; globalThis.__c4 = new SecretsManagerClient({});",
};

interface Fn {
  name: string;
  kind: 'api' | 'job';
}

/**
 * Issue 8, cold start: every function bundled as lib/api-function.ts bundles it (esbuild: ESM,
 * minify, platform node, target node22, mainFields module/main, the createRequire banner), once
 * with @aws-sdk/* external (what Lambda deploys: the size budget) and once with the SDK bundled in;
 * beside it, a bundle of the bare SDK clients the function uses (found in its metafile), also with
 * the SDK bundled in. Load time: `node --input-type=module -e "await import(file)"` wall time,
 * median of RUNS interleaved with the bare bundle's runs, with the sandbox stage's environment (handlers create clients at module scope
 * but call nothing at import).
 */
export const coldStartScenario: Scenario = {
  name: 'cold-start',
  title: 'Cold start: bundle size and module-load time per function, beside the bare AWS SDK client(s) it uses',
  async run({ log }) {
    const functions: Fn[] = [
      ...ROUTES.map((route) => ({ name: route.handler, kind: 'api' as const })),
      { name: AUTHORIZER.handler, kind: 'api' },
      ...[JOBS.depositPoller, JOBS.withdrawalSender, JOBS.depositSweeper, JOBS.reconcile, JOBS.financeExportCheck, JOBS.webhookDispatcher, JOBS.webhookSender].map((job) => ({ name: job.handler, kind: 'job' as const })),
    ];
    const out = mkdtempSync(join(tmpdir(), 'cambio-cold-'));
    const env = {
      PATH: process.env.PATH ?? '',
      ...STAGES.sandbox.functionEnvironment,
      TABLE_NAME: 'cambio-bench',
      STAGE: 'sandbox',
      DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      POWERTOOLS_METRICS_DISABLED: 'true',
      // What the stack passes the jobs (values never called at import).
      SIGNER_KMS_KEY_ID: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      EXPORT_TABLE_ARN: 'arn:aws:dynamodb:us-east-1:123456789012:table/cambio-bench',
      WEBHOOK_SECRET_KMS_KEY_ID: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000001',
      SIGNER_SECRET_ID: 'bench-signer',
      SWEEP_ACCOUNT_XPRV_SECRET: 'bench-sweep-xprv',
      WEBHOOK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/bench-webhooks',
      WEBHOOK_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/bench-webhooks-dlq',
    } as Record<string, string>;
    const failures: string[] = [];
    const bundle = async (entry: { file: string } | { contents: string }, outfile: string, external: boolean): Promise<Metafile> => {
      const result = await build({
        ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'ts' } }),
        outfile,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: { js: BANNER },
        minify: true,
        external: external ? ['@aws-sdk/*'] : [],
        metafile: true,
        logLevel: 'error',
      });
      return result.metafile;
    };
    /** Median wall time of the node process, and median time of the import alone (measured in it),
     * for each file, the files' runs interleaved (A B A B …) so machine noise hits them alike. */
    const measureAll = (files: string[]): ({ wall: number; importMs: number } | string)[] => {
      const walls = files.map(() => [] as number[]);
      const imports = files.map(() => [] as number[]);
      const errors: (string | null)[] = files.map(() => null);
      for (let i = 0; i < RUNS; i++) {
        files.forEach((file, f) => {
          if (errors[f]) return;
          const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
          const t0 = performance.now();
          const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
          const ms = performance.now() - t0;
          if (child.status !== 0) {
            const line = child.stderr.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? child.stderr.slice(-200);
            errors[f] = `failed: ${line.slice(0, 200)}`;
            return;
          }
          walls[f]!.push(ms);
          imports[f]!.push(Number(child.stdout));
        });
      }
      return files.map((_, f) => errors[f] ?? { wall: median(walls[f]!), importMs: median(imports[f]!) });
    };
    const measure = (file: string) => measureAll([file])[0]!;
    const loadMs = measure;

    try {
      const empty = join(out, 'empty.mjs');
      writeFileSync(empty, 'export {};\n');
      const nodeBaseline = loadMs(empty) as { wall: number; importMs: number };
      const bareCache = new Map<string, { size: number; file: string }>();
      const rows: (string | number)[][] = [];
      const goals: { goal: string; met: boolean; detail: string }[] = [];
      let apiOverBudget = 0;
      let apiOverRatio = 0;
      let apiCount = 0;
      for (const fn of functions) {
        log(`  ${fn.name}`);
        const slug = fn.name.replace(/\//g, '__');
        const file = join(ROOT, 'functions', 'handlers', `${fn.name}.ts`);
        const externalFile = join(out, `${slug}.external.mjs`);
        const meta = await bundle({ file }, externalFile, true);
        const sdkPackages = [...new Set(Object.values(meta.outputs).flatMap((o) => o.imports.map((i) => i.path)).filter((p) => p.startsWith('@aws-sdk/client-')))]
          .map((p) => p.split('/').slice(0, 2).join('/'))
          .filter((p) => p in BARE_CLIENTS)
          .sort();
        const uniqueSdk = [...new Set(sdkPackages)];
        const bundledFile = join(out, `${slug}.bundled.mjs`);
        await bundle({ file }, bundledFile, false);
        const key = uniqueSdk.join('+') || 'none';
        if (!bareCache.has(key)) {
          const bareFile = join(out, `bare-${key.replace(/[@/+]/g, '_')}.mjs`);
          await bundle({ contents: uniqueSdk.map((p) => BARE_CLIENTS[p]).join('\n') || 'export {};' }, bareFile, false);
          bareCache.set(key, { size: statSync(bareFile).size, file: bareFile });
        }
        const bareBundle = bareCache.get(key)!;
        const [ms, bareMs] = measureAll([bundledFile, bareBundle.file]) as [ReturnType<typeof measure>, ReturnType<typeof measure>];
        const bare = { size: bareBundle.size, ms: bareMs };
        const sizeExternal = statSync(externalFile).size;
        const ratio = typeof ms !== 'string' && typeof bare.ms !== 'string' ? ms.wall / bare.ms.wall : Number.NaN;
        const importRatio = typeof ms !== 'string' && typeof bare.ms !== 'string' ? ms.importMs / bare.ms.importMs : Number.NaN;
        if (typeof ms === 'string') failures.push(`${fn.name}: ${ms}`);
        if (fn.kind === 'api') {
          apiCount++;
          if (sizeExternal >= API_BUDGET_BYTES) apiOverBudget++;
          if (!(ratio < LOAD_RATIO_GOAL)) apiOverRatio++;
        }
        rows.push([
          fn.name,
          fn.kind,
          kb(sizeExternal),
          kb(statSync(bundledFile).size),
          typeof ms !== 'string' ? `${Math.round(ms.wall)} / ${Math.round(ms.importMs)}` : ms,
          uniqueSdk.map((p) => p.replace('@aws-sdk/client-', '')).join(' + ') || 'none',
          kb(bare.size),
          typeof bare.ms !== 'string' ? `${Math.round(bare.ms.wall)} / ${Math.round(bare.ms.importMs)}` : bare.ms,
          Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a',
          Number.isFinite(importRatio) ? importRatio.toFixed(2) : 'n/a',
        ]);
      }
      goals.push({ goal: 'API functions under 300 KB (SDK external, as deployed)', met: apiOverBudget === 0, detail: `${apiCount - apiOverBudget} of ${apiCount} under` });
      goals.push({ goal: `API functions load in under ${LOAD_RATIO_GOAL}x the bare client's time (both with the SDK bundled)`, met: apiOverRatio === 0, detail: `${apiCount - apiOverRatio} of ${apiCount} under` });
      const table: ResultTable = {
        title: `Bundles and load time (node --input-type=module -e "await import(file)": wall ms of the process / ms of the import alone, medians of ${RUNS}; an empty module: ${Math.round(nodeBaseline.wall)} / ${nodeBaseline.importMs.toFixed(1)} ms)`,
        columns: ['function', 'kind', 'KB, SDK external (deployed)', 'KB, SDK bundled', 'load ms wall / import (SDK bundled)', 'SDK clients', 'bare client KB', 'bare client load ms wall / import', 'ratio (wall)', 'ratio (import alone)'],
        rows,
      };
      return {
        name: 'cold-start',
        title: this.title,
        summaries: [],
        tables: [table],
        goals,
        failures,
        notes: [
          'Sizes are of the minified .mjs without its source map. Deployed bundles leave @aws-sdk/* out (Lambda provides it); for the load-time comparison both the function and the bare-client bundle include the SDK, so the ratio compares like with like (the SDK code a function loads from the runtime is loaded either way).',
          'The bare-client bundle creates the same client(s) at module scope: DynamoDBDocumentClient over DynamoDBClient, plus KMSClient / SQSClient / SecretsManagerClient where the function bundles that package.',
          'Wall times include starting node (the empty-module figure); measured on this x64 machine, not on Lambda ARM64 with its 512 MB share of a CPU.',
        ],
      };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
