import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as an integrator gets it: `npm pack`, installed offline into an empty app, then
 * loaded with require() from CommonJS and with import from ESM, and type-checked from a CommonJS
 * TypeScript file.
 */
const run = promisify(execFile);
const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(clientDir, '../../node_modules/typescript/bin/tsc');
const { version } = JSON.parse(await readFile(join(clientDir, 'package.json'), 'utf8')) as { version: string };

let app: string;
let seen: IncomingHttpHeaders[] = [];
let apiUrl: string;
const server = createServer((req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'req-packed' });
  res.end(JSON.stringify({ success: true, data: { balances: [{ currency: 'USDT', available: '1.000000', locked: '0.000000' }] } }));
});

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'cambio-client-consumer-'));
  const packed = await mkdtemp(join(tmpdir(), 'cambio-client-pack-'));
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: clientDir });
  const tarball = join(packed, stdout.trim().split('\n').at(-1)!);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app });
  await rm(packed, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}, 180_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (app) await rm(app, { recursive: true, force: true });
});

/** What each consumer prints: the version, the User-Agent it sent, and the balance's answer. */
const consumerBody = (load: string) => `${load}
const cambio = new Cambio({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s', baseUrl: process.env.API });
cambio.company.balance().then((balance) => {
  console.log(JSON.stringify({
    VERSION,
    error: new RefusedError('x', { code: 'INSUFFICIENT_BALANCE' }) instanceof CambioError,
    serialised: JSON.parse(JSON.stringify(balance)),
    lastResponse: { status: balance.lastResponse.status, requestId: balance.lastResponse.requestId },
  }));
});
`;

async function consume(file: string, source: string) {
  await writeFile(join(app, file), source);
  seen = [];
  const { stdout } = await run(process.execPath, [file], { cwd: app, env: { ...process.env, API: apiUrl } });
  return { printed: JSON.parse(stdout) as Record<string, unknown>, userAgent: seen[0]?.['user-agent'] };
}

const expected = {
  VERSION: version,
  error: true,
  serialised: { balances: [{ currency: 'USDT', available: '1.000000', locked: '0.000000' }] },
  lastResponse: { status: 200, requestId: 'req-packed' },
};

describe('the packed cambio-usdt', () => {
  it('loads with require() from a CommonJS app', async () => {
    const { printed, userAgent } = await consume('consumer.cjs', consumerBody("const { Cambio, CambioError, RefusedError, VERSION } = require('cambio-usdt');"));

    expect(printed).toEqual(expected);
    expect(userAgent).toBe(`cambio-node/${version} node/${process.versions.node}`);
  });

  it('loads with import from an ES module app', async () => {
    const { printed, userAgent } = await consume('consumer.mjs', consumerBody("import { Cambio, CambioError, RefusedError, VERSION } from 'cambio-usdt';"));

    expect(printed).toEqual(expected);
    expect(userAgent).toBe(`cambio-node/${version} node/${process.versions.node}`);
  });

  it('gives require() and import the one same library, so instanceof holds across module systems', async () => {
    // An ES module app whose CommonJS dependency (here a file it require()s) throws the client's errors.
    await writeFile(join(app, 'dependency.cjs'), "const { RefusedError } = require('cambio-usdt'); exports.refuse = () => { throw new RefusedError('no', { code: 'INSUFFICIENT_BALANCE' }); };");
    await writeFile(
      join(app, 'both.mjs'),
      `import { createRequire } from 'node:module';
import * as imported from 'cambio-usdt';
const required = createRequire(import.meta.url)('cambio-usdt');
let caught;
try { createRequire(import.meta.url)('./dependency.cjs').refuse(); } catch (error) { caught = error; }
console.log(JSON.stringify({
  sameCambio: imported.Cambio === required.Cambio,
  differing: Object.keys(required).filter((name) => imported[name] !== required[name]),
  missing: Object.keys(required).filter((name) => !(name in imported)),
  caughtIsImportedRefused: caught instanceof imported.RefusedError,
  caughtIsImportedCambioError: caught instanceof imported.CambioError,
}));
`,
    );

    const { stdout } = await run(process.execPath, ['both.mjs'], { cwd: app });

    expect(JSON.parse(stdout)).toEqual({ sameCambio: true, differing: [], missing: [], caughtIsImportedRefused: true, caughtIsImportedCambioError: true });
  });

  it('gives a CommonJS TypeScript app its types', async () => {
    await mkdir(join(app, 'src'), { recursive: true });
    await writeFile(
      join(app, 'src/consumer.cts'),
      `import { Cambio, type Deposit } from 'cambio-usdt';
const cambio = new Cambio({ apiKey: 'k', apiSecret: 's', baseUrl: 'https://example.com/v1' });
export async function status(id: string): Promise<[Deposit['status'], number]> {
  const deposit = await cambio.deposits.get(id, { timeoutMs: 5_000 });
  return [deposit.status, deposit.lastResponse.status];
}
`,
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, noEmit: true, types: [] }, include: ['src'] }),
    );

    await expect(run(process.execPath, [tsc, '-p', app], { cwd: app })).resolves.toBeDefined();
  }, 120_000);
});
