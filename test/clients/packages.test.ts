import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConformanceRuntime, type ConformanceRuntime } from '../../clients/conformance/runtime.ts';
import { consumerCheckScript, DIST_DIR, LANGUAGES, packScript, ROOT } from '../../clients/release/pack.ts';
import { readVersionFile } from '../../clients/release/version.ts';

/**
 * The release dry-run, as CI runs it: `npm run clients:pack` builds every client's artifacts into
 * dist/clients/, then each language's tools/consumer-check.sh installs its artifact into a new
 * project of its ecosystem, offline, and asks the live local runtime for a fresh sandbox company's
 * balance through the installed library.
 */
const run = promisify(execFile);
const version = readVersionFile();
const packed = LANGUAGES.filter((language) => existsSync(packScript(language)));

let live: ConformanceRuntime | undefined;
let packOutput = '';

beforeAll(async () => {
  const [pack, runtime] = await Promise.all([
    run('npm', ['run', '--silent', 'clients:pack', '--', ...packed], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }),
    startConformanceRuntime(inject('dynamoEndpoint')),
  ]);
  packOutput = pack.stdout;
  live = runtime;
}, 600_000);

afterAll(async () => {
  await live?.stop();
});

describe('npm run clients:pack, then each artifact installed into a new project', () => {
  it('every one of the six clients has its tools/pack.sh and tools/consumer-check.sh', () => {
    const without = LANGUAGES.filter((language) => !existsSync(packScript(language)) || !existsSync(consumerCheckScript(language)));
    expect(without, 'clients without release tools').toEqual([]);
  });

  it('lists what it wrote, every name carrying clients/VERSION', () => {
    for (const language of packed) expect(packOutput).toMatch(new RegExp(`^${language}: dist/clients/\\S*${version.replaceAll('.', '\\.')}\\S*$`, 'm'));
    expect(packOutput).toContain(`artifacts of ${version} in dist/clients/, every archive with its LICENSE`);
  });

  it.each(packed)('%s: installed offline, it reads the balance from the local runtime', async (language) => {
    const check = await run('bash', [consumerCheckScript(language), DIST_DIR], {
      cwd: ROOT,
      env: { ...process.env, ...live!.env, CAMBIO_VERSION: version },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`${language}: consumer-check.sh exited ${error.code}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });

    // A new sandbox company holds nothing yet: the balance says so in each currency.
    // Each language prints it its own way: "USDT available 0.000000" or "0.000000 USDT, 0.00 BRL available".
    expect(check.stdout).toMatch(/\bUSDT available 0\.000000\b|\b0\.000000 USDT\b/);
    expect(check.stdout).toMatch(/\bBRL available 0\.00\b|\b0\.00 BRL\b/);
    expect(check.stdout).toContain('available');
  }, 180_000);
});
