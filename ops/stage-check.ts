import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { argumentsOf, refuser } from './screening-target.ts';

/**
 * `npm run stage:check -- --api-url <ApiUrl> [--dashboard-url <DashboardUrl>] [--create-deposit]`,
 * with CAMBIO_API_KEY and CAMBIO_API_SECRET set to a key of the stage: after a `cdk deploy`, checks
 * from outside, over HTTPS as an integrator and a browser reach it, that the stage answers as the
 * contract says. Writes nothing (its one POST, a withdrawal screening must refuse, cannot be paid
 * either), unless --create-deposit (sandbox companies only) makes one deposit to check a write, its
 * read-back and an idempotent replay. Exits 1 when a check fails, 2 on bad usage.
 */

/** One of OFAC's TRON addresses (the shipped snapshot, config/screening/), which every stage's
 * screening list holds once it has been loaded. */
const OFAC_LISTED_TRX = readFileSync(fileURLToPath(new URL('../config/screening/sanctioned_TRX.txt', import.meta.url)), 'utf8').split('\n')[0]!.trim();
/** The most the API takes: no company holds it, so the probe below is refused even if screening
 * let it through (422 INSUFFICIENT_BALANCE), and writes nothing either way. */
const UNAFFORDABLE_USDT = '999999999999';

export interface StageCheckOptions {
  apiUrl: string;
  apiKey: string;
  apiSecret: string;
  dashboardUrl?: string;
  createDeposit?: boolean;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

type Answer = { status: number; headers: Headers; body: any; text: string };

/** Every check, in order; one that throws is a failed check with its message, and the next ones still run. */
export async function checkStage(options: StageCheckOptions): Promise<CheckResult[]> {
  const api = options.apiUrl.replace(/\/+$/, '').replace(/(\/v1)?$/, '/v1');
  const credentials = { 'X-Api-Key': options.apiKey, 'X-Api-Secret': options.apiSecret };
  const results: CheckResult[] = [];
  const check = async (name: string, run: () => Promise<string>) => {
    try {
      results.push({ name, ok: true, detail: await run() });
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  };
  let environment: string | null = null;

  await check('an unauthenticated call is refused: 401 AUTH_FAILED in the envelope', async () => {
    const answer = await request(`${api}/company`, {});
    expectEnvelopeError(answer, 401, 'AUTH_FAILED');
    return '401 AUTH_FAILED';
  });
  await check('the key reads its company', async () => {
    const answer = await request(`${api}/company`, credentials);
    expectStatus(answer, 200);
    const company = answer.body?.data;
    if (!/^cmp_/.test(company?.id ?? '')) throw new Error(`no company id in ${answer.text.slice(0, 200)}`);
    environment = company.environment;
    return `${company.id} "${company.name}", ${company.environment}`;
  });
  await check('the balance holds USDT and BRL as decimal strings', async () => {
    const answer = await request(`${api}/company/balance`, credentials);
    expectStatus(answer, 200);
    const balances: { currency: string; available: unknown }[] = answer.body?.data?.balances ?? [];
    const shown = balances.map((balance) => `${balance.currency} ${balance.available}`);
    for (const currency of ['USDT', 'BRL']) {
      const balance = balances.find((candidate) => candidate.currency === currency);
      if (!balance || typeof balance.available !== 'string' || !/^\d+\.\d+$/.test(balance.available)) throw new Error(`no ${currency} balance as a decimal string: ${shown.join(', ')}`);
    }
    return `available ${shown.join(', ')}`;
  });
  await check('an unknown path answers 404 NOT_FOUND in the envelope', async () => {
    expectEnvelopeError(await request(`${api}/no-such-route`, credentials), 404, 'NOT_FOUND');
    return '404 NOT_FOUND';
  });
  await check("the sanctions screening list is loaded: a withdrawal to an address on OFAC's list is refused as sanctioned", async () => {
    const body = JSON.stringify({ method: 'usdt', network: 'tron', address: OFAC_LISTED_TRX, amount: UNAFFORDABLE_USDT, reference: `stage-check-${randomUUID()}` });
    const answer = await request(`${api}/withdrawals`, { ...credentials, 'Content-Type': 'application/json' }, body);
    if (answer.status === 503 && answer.body?.error?.code === 'SCREENING_UNAVAILABLE') {
      throw new Error("the screening list is empty, never loaded: withdrawals, splits and allowlist entries answer 503 and no deposit is credited until OFAC's list is imported (README, Screening)");
    }
    expectEnvelopeError(answer, 422, 'ADDRESS_NOT_ALLOWED');
    if (answer.body.error.details?.reason !== 'sanctioned') throw new Error(`refused, but not as sanctioned: ${answer.text.slice(0, 200)}`);
    return `${OFAC_LISTED_TRX} refused, nothing written`;
  });
  if (options.createDeposit) {
    await check('a deposit is created, read back and replayed by its Idempotency-Key', async () => {
      if (environment !== 'sandbox') throw new Error(`--create-deposit is for a sandbox company; this key's company is ${environment ?? 'unknown'}`);
      const idempotencyKey = `stage-check-${randomUUID()}`;
      const body = JSON.stringify({ method: 'usdt', network: 'tron', reference: idempotencyKey, amount: '1' });
      const create = () => request(`${api}/deposits`, { ...credentials, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey }, body);
      const created = await create();
      expectStatus(created, 201);
      const deposit = created.body.data;
      if (deposit.status !== 'awaiting_payment' || !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(deposit.address ?? '')) throw new Error(`unexpected deposit: ${created.text.slice(0, 300)}`);
      const read = await request(`${api}/deposits/${deposit.id}`, credentials);
      expectStatus(read, 200);
      if (read.body.data.id !== deposit.id || read.body.data.address !== deposit.address) throw new Error(`read back another deposit: ${read.text.slice(0, 300)}`);
      const replayed = await create();
      expectStatus(replayed, 201);
      if (replayed.headers.get('idempotent-replayed') !== 'true' || replayed.body.data.id !== deposit.id) throw new Error(`the replay was not the first answer: ${replayed.text.slice(0, 300)}`);
      return `${deposit.id} to ${deposit.address} (expires unpaid)`;
    });
  }
  if (options.dashboardUrl) {
    const dashboard = options.dashboardUrl.replace(/\/*$/, '/');
    const assets: string[] = [];
    await check('the dashboard page is served with no-cache and its security headers', async () => {
      const page = await request(dashboard, {});
      expectStatus(page, 200);
      expectHeader(page, 'content-type', /^text\/html/);
      expectHeader(page, 'cache-control', /no-cache/);
      expectHeader(page, 'content-security-policy', /script-src 'self'/);
      expectHeader(page, 'x-frame-options', /^DENY$/i);
      expectHeader(page, 'x-content-type-options', /^nosniff$/);
      for (const match of page.text.matchAll(/(?:src|href)="([^"]*\/assets\/[^"]+)"/g)) assets.push(new URL(match[1]!, dashboard).href);
      if (assets.length < 2) throw new Error(`the page names ${assets.length} built file(s), not its script and stylesheet`);
      return `${assets.length} built files named`;
    });
    await check("the dashboard's built files are served, cached as immutable", async () => {
      if (assets.length === 0) throw new Error('no built file to fetch (the page check failed)');
      for (const asset of assets) {
        const answer = await request(asset, {});
        expectStatus(answer, 200);
        expectHeader(answer, 'cache-control', /immutable/);
      }
      return assets.map((asset) => new URL(asset).pathname).join(', ');
    });
    await check("the dashboard's own routes answer with the page (SPA routing)", async () => {
      const page = await request(new URL('activity/deposits', dashboard).href, {});
      expectStatus(page, 200);
      expectHeader(page, 'content-type', /^text\/html/);
      return '/dashboard/activity/deposits';
    });
    await check("the dashboard's API answers through the dashboard's origin, for the key's stage", async () => {
      const answer = await request(new URL('api/stage', dashboard).href, {});
      expectStatus(answer, 200);
      const stage = answer.body?.data;
      if (typeof stage?.environment !== 'string') throw new Error(`not the dashboard API's answer: ${answer.text.slice(0, 200)}`);
      // A dashboard URL of another stage than the key's is a deploy's outputs mixed up.
      if (environment !== null && stage.environment !== environment) throw new Error(`this dashboard is ${stage.environment}'s, the key's company is ${environment}`);
      return `${stage.environment}; sign-up ${stage.selfSignUp ? 'open' : 'by invitation'}; password reset by mail ${stage.passwordResetByMail ? 'on' : 'off (no mailFrom)'}`;
    });
  }
  return results;
}

/** A GET, or a POST of `body`; redirects are answers to check, not to follow. */
async function request(url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const response = await fetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the dashboard's HTML and files, or an answer that the checks will name as wrong.
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

function expectStatus(answer: Answer, status: number): void {
  if (answer.status !== status) throw new Error(`HTTP ${answer.status}, expected ${status}: ${answer.text.slice(0, 200)}`);
}

function expectEnvelopeError(answer: Answer, status: number, code: string): void {
  expectStatus(answer, status);
  if (answer.body?.success !== false || answer.body?.error?.code !== code) throw new Error(`not the envelope with ${code}: ${answer.text.slice(0, 200)}`);
}

function expectHeader(answer: Answer, name: string, pattern: RegExp): void {
  const value = answer.headers.get(name);
  if (value === null || !pattern.test(value)) throw new Error(`${name} is ${value === null ? 'missing' : JSON.stringify(value)}, expected ${pattern}`);
}

/** `npm run stage:check`. */
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const USAGE = 'Usage: CAMBIO_API_KEY=… CAMBIO_API_SECRET=… npm run stage:check -- --api-url <ApiUrl> [--dashboard-url <DashboardUrl>] [--create-deposit]';
  const { values } = argumentsOf({ 'api-url': { type: 'string' }, 'dashboard-url': { type: 'string' }, 'create-deposit': { type: 'boolean', default: false } }, refuser(USAGE));
  const apiKey = process.env.CAMBIO_API_KEY;
  const apiSecret = process.env.CAMBIO_API_SECRET;
  if (!values['api-url'] || !apiKey || !apiSecret) {
    console.error(`--api-url (the stack's ApiUrl output), CAMBIO_API_KEY and CAMBIO_API_SECRET are needed. ${USAGE}`);
    process.exit(2);
  }
  const results = await checkStage({ apiUrl: values['api-url'], apiKey, apiSecret, dashboardUrl: values['dashboard-url'], createDeposit: values['create-deposit'] });
  for (const result of results) console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}`);
  const failed = results.filter((result) => !result.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
