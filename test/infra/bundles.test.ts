import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { DEPOSIT_SWEEPER, WITHDRAWAL_SENDER, lambdaName } from '../../functions/routes.ts';

/** The API-function size goal: small bundles keep cold starts short. */
const MAX_BUNDLE_BYTES = 300 * 1024;
/** The withdrawal sender and the sweeper bundle tronweb to build transactions (~1.2 MB, it does not tree-shake:
 * ../shared/tron-notes.md, Size); it runs on a schedule, where a cold start costs no customer. */
const MAX_SENDER_BUNDLE_BYTES = 4 * 1024 * 1024;

const outdir = mkdtempSync(path.join(tmpdir(), 'cambio-cdk-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

it('bundles every function with esbuild into an ESM asset under 300 KB (the withdrawal sender, with tronweb and its source map, under 4 MB)', () => {
  const app = new App({ context: { stage: 'sandbox' }, outdir });
  const template = Template.fromStack(addCambioStack(app));
  app.synth();

  const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
  expect(functions.length).toBeGreaterThan(0);
  for (const [id, fn] of functions) {
    const s3Key: string = fn.Properties.Code.S3Key;
    const assetDir = path.join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);
    const code = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
    const bytes = readdirSync(assetDir).reduce((sum, file) => sum + statSync(path.join(assetDir, file)).size, 0);

    const isSender = [WITHDRAWAL_SENDER, DEPOSIT_SWEEPER].some((job) => String(fn.Properties.FunctionName).endsWith(lambdaName(job.handler)));
    expect(bytes, `${id}: asset is ${bytes} bytes`).toBeLessThan(isSender ? MAX_SENDER_BUNDLE_BYTES : MAX_BUNDLE_BYTES);
    // tronweb stays out of everything but the sender.
    if (!isSender) expect(code, `${id}: bundles tronweb`).not.toMatch(/TronWeb/);
    // Lambda calls `index.handler`; minification must keep the export's name.
    expect(code, `${id}: no handler export`).toMatch(/export\s*\{[^}]*\bas handler\b[^}]*\}/);
    // package.json `imports` aliases were resolved by esbuild, not left for Lambda to fail on.
    expect(code, `${id}: unresolved #alias import`).not.toMatch(/from\s*["']#/);
    expect(code.startsWith('import { createRequire')).toBe(true);
  }
}, 120_000);
