import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConformanceRuntime, type ConformanceRuntime } from '../../clients/conformance/runtime.ts';
import { consumerCheckScript, DIST_DIR, LANGUAGES, packScript, ROOT } from '../../clients/release/pack.ts';
import { archiveEntries, zipFile } from '../../clients/release/archive.ts';
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

describe('the .NET package, as NuGet would take it', () => {
  // What `dotnet pack` put in the package the consumer check installs: a build and its XML docs for
  // each target (netstandard2.0 reaches .NET Framework and older .NET), the README and LICENSE, the
  // metadata a company's review reads, and nothing beyond the framework on .NET 8 and later.
  const nupkg = join(DIST_DIR, `Cambio.${version}.nupkg`);
  const field = (nuspec: string, name: string) => new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`).exec(nuspec)?.[1];

  it.runIf(packed.includes('dotnet'))('holds every target, the README and LICENSE, MIT metadata, the dependencies per target, and its symbols beside it', () => {
    const entries = archiveEntries(nupkg);
    for (const framework of ['netstandard2.0', 'net8.0', 'net10.0']) expect(entries).toEqual(expect.arrayContaining([`lib/${framework}/Cambio.dll`, `lib/${framework}/Cambio.xml`]));
    expect(entries).toEqual(expect.arrayContaining(['README.md', 'LICENSE']));
    const nuspec = zipFile(nupkg, 'Cambio.nuspec').toString('utf8');
    expect(field(nuspec, 'version')).toBe(version);
    expect(field(nuspec, 'license')).toBe('MIT');
    expect(field(nuspec, 'authors')).toBe('Cambio');
    expect(field(nuspec, 'projectUrl')).toMatch(/^https:\/\//);
    expect(/<repository [^>]*url="(https:\/\/[^"]+)"/.exec(nuspec)?.[1]).toBeDefined();
    const dependencies = (framework: string) =>
      [...(new RegExp(`<group targetFramework="${framework.replaceAll('.', '\\.')}"\\s*(?:/>|>([\\s\\S]*?)</group>)`).exec(nuspec)?.[1] ?? '').matchAll(/<dependency id="([^"]+)"/g)].map((match) => match[1]).sort();
    expect(nuspec).toMatch(/<group targetFramework="net8\.0"/);
    expect(dependencies('net8.0')).toEqual([]);
    expect(dependencies('net10.0')).toEqual([]);
    expect(dependencies('.NETStandard2.0')).toEqual(['Microsoft.Bcl.AsyncInterfaces', 'Microsoft.Bcl.TimeProvider', 'System.Text.Json']);
    expect(existsSync(join(DIST_DIR, `Cambio.${version}.snupkg`)), 'no symbols package beside the package').toBe(true);
  });
});
