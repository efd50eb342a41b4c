import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoActivityStore } from '#adapters/dynamo/activity-store';
import { buildDashboard } from '../../dashboard/build.ts';
import type { LocalRuntime } from '#local/runtime';
import { checkStage } from '../../ops/stage-check.ts';
import { newCompany, startTestApi, stopTestApi } from '../support/local-api.ts';

/**
 * `npm run stage:check` (ops/stage-check.ts), the post-deploy check, against the local runtime
 * (the same handlers, authorizer and gateway responses as a stage) through real sockets, with the
 * dashboard app built into a folder of this test's own.
 */
const appDir = mkdtempSync(join(tmpdir(), 'cambio-stage-check-app-'));
let runtime: LocalRuntime;

beforeAll(async () => {
  buildDashboard(appDir);
  runtime = await startTestApi({ dashboardAppDir: appDir });
});
afterAll(async () => {
  await stopTestApi(runtime);
  rmSync(appDir, { recursive: true, force: true });
});

/** The company's deposits as the table holds them (the contract has no list of deposits). */
async function depositsOf(companyId: string) {
  const db = createDocumentClient(runtime.dynamoEndpoint);
  try {
    return (await new DynamoActivityStore(db, runtime.tableName).activityPage(companyId, 'deposits', {}, { limit: 10 })).records;
  } finally {
    db.destroy();
  }
}

const failures = (results: { ok: boolean; name: string; detail: string }[]) => results.filter((result) => !result.ok).map((result) => `${result.name}: ${result.detail}`);

describe('the stage check', () => {
  it('passes every check on a healthy stage, the dashboard included, and reads only', async () => {
    const { companyId, credentials } = await newCompany(runtime, 'Checked Co');

    const results = await checkStage({ apiUrl: runtime.apiUrl, ...credentials, dashboardUrl: runtime.dashboardUrl! });

    expect(failures(results)).toEqual([]);
    expect(results).toHaveLength(9);
    expect(results.at(-1)).toEqual({ name: "the dashboard's API answers through the dashboard's origin, for the key's stage", ok: true, detail: 'sandbox; sign-up open; password reset by mail on' });
    expect(results.find((result) => result.name === 'the key reads its company')!.detail).toMatch(/^cmp_\w+ "Checked Co", sandbox$/);
    expect(await depositsOf(companyId)).toEqual([]);
  });

  it('with --create-deposit makes one sandbox deposit, reads it back and replays it by its Idempotency-Key', async () => {
    const { companyId, credentials } = await newCompany(runtime, 'Writes Co');

    const results = await checkStage({ apiUrl: `${runtime.apiUrl}/`, ...credentials, createDeposit: true });

    expect(failures(results)).toEqual([]);
    const deposits = await depositsOf(companyId);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]!.record).toMatchObject({ status: 'awaiting_payment', reference: expect.stringMatching(/^stage-check-/) });
  });

  it("fails the dashboard's check when the dashboard is another stage's than the key's company", async () => {
    const { credentials } = await newCompany(runtime, 'Mixed Up Co', 'production');

    const results = await checkStage({ apiUrl: runtime.apiUrl, ...credentials, dashboardUrl: runtime.dashboardUrl! });

    expect(failures(results)).toEqual(["the dashboard's API answers through the dashboard's origin, for the key's stage: this dashboard is sandbox's, the key's company is production"]);
  });

  it('refuses --create-deposit for a production company, and writes nothing', async () => {
    const { companyId, credentials } = await newCompany(runtime, 'Live Co', 'production');

    const results = await checkStage({ apiUrl: runtime.apiUrl, ...credentials, createDeposit: true });

    expect(failures(results)).toEqual([expect.stringContaining('--create-deposit is for a sandbox company; this key\'s company is production')]);
    expect(await depositsOf(companyId)).toEqual([]);
  });

  it('names what fails and still runs the other checks: a wrong secret, a URL that serves no dashboard', async () => {
    const { credentials } = await newCompany(runtime, 'Wrong Co');

    const results = await checkStage({ apiUrl: runtime.apiUrl, apiKey: credentials.apiKey, apiSecret: `${credentials.apiSecret}x`, dashboardUrl: `${runtime.apiUrl}/` });

    expect(results.map((result) => [result.name, result.ok])).toEqual([
      ['an unauthenticated call is refused: 401 AUTH_FAILED in the envelope', true],
      ['the key reads its company', false],
      ['the balance holds USDT and BRL as decimal strings', false],
      ['an unknown path answers 404 NOT_FOUND in the envelope', true],
      ["the sanctions screening list is loaded: a withdrawal to an address on OFAC's list is refused as sanctioned", false],
      ['the dashboard page is served with no-cache and its security headers', false],
      ["the dashboard's built files are served, cached as immutable", false],
      ["the dashboard's own routes answer with the page (SPA routing)", false],
      ["the dashboard's API answers through the dashboard's origin, for the key's stage", false],
    ]);
    expect(results[1]!.detail).toMatch(/^HTTP 401, expected 200/);
    expect(results.map((result) => result.detail).join('\n')).not.toContain(credentials.apiSecret);
  });
});

describe('npm run stage:check', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'ops/stage-check.ts', ...args], { env: { ...process.env, ...env }, cwd: join(import.meta.dirname, '../..'), timeout: 60_000 }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('prints a line per check and the count, exiting 0 when all pass and 1 when one fails', async () => {
    const { credentials } = await newCompany(runtime, 'Cli Co');
    const env = { CAMBIO_API_KEY: credentials.apiKey, CAMBIO_API_SECRET: credentials.apiSecret };

    const passed = await cli(['--api-url', runtime.apiUrl], env);
    expect(passed.code).toBe(0);
    expect(passed.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^ok {3}an unauthenticated call is refused/),
      expect.stringMatching(/^ok {3}the key reads its company: cmp_/),
      expect.stringMatching(/^ok {3}the balance holds USDT and BRL/),
      expect.stringMatching(/^ok {3}an unknown path answers 404/),
      expect.stringMatching(/^ok {3}the sanctions screening list is loaded: .*: T\w{33} refused, nothing written$/),
      '5 passed, 0 failed',
    ]);

    const failed = await cli(['--api-url', runtime.apiUrl], { ...env, CAMBIO_API_SECRET: 'cs_test_wrong' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL the key reads its company: HTTP 401');
    expect(failed.stdout.trim().split('\n').at(-1)).toBe('2 passed, 3 failed');
  });

  it('exits 2 and says what it needs without the API URL or the key', async () => {
    const missing = await cli(['--api-url', runtime.apiUrl], { CAMBIO_API_KEY: '', CAMBIO_API_SECRET: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--api-url (the stack\'s ApiUrl output), CAMBIO_API_KEY and CAMBIO_API_SECRET are needed');
  });
});
