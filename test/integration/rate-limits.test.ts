import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../lib/stages.ts';
import { apiClient, newCompany, startTestApi } from '../support/local-api.ts';

/**
 * Issue #18 item 2: one company's burst meets 429 RATE_LIMITED with Retry-After, while another
 * company's calls pass. The local runtime keeps a token bucket per company, as API Gateway's usage
 * plan does per company key (functions/domain/rate-limits.ts); here 5 at once, then 2 a second.
 */
const LIMIT = { rateLimit: 2, burstLimit: 5 };

describe('per-company rate limits (local runtime)', () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await startTestApi({ companyRateLimit: LIMIT });
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  it("refuses a company's burst beyond its limit with 429 RATE_LIMITED and Retry-After, while another company's calls pass", async () => {
    const noisy = await newCompany(runtime, 'Noisy Ltda');
    const quiet = await newCompany(runtime, 'Quiet Ltda');

    const burst = await Promise.all(Array.from({ length: 12 }, () => noisy.call('GET', '/company')));
    const quietCalls = await Promise.all(Array.from({ length: 4 }, () => quiet.call('GET', '/company')));

    const refused = burst.filter((answer) => answer.status === 429);
    expect(burst.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(LIMIT.burstLimit);
    // Tokens refill at 2 a second while the burst is served, so on a slow machine more than 5 pass.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(burst.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    for (const answer of refused) {
      expect(answer.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String), details: null } });
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(answer.headers.get('x-request-id')).toBeTruthy();
    }
    expect(quietCalls.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(quietCalls[0]!.body.data.id).toBe(quiet.companyId);
  });

  it('lets the company in again once Retry-After has passed', async () => {
    const company = await newCompany(runtime, 'Patient Ltda');
    const burst = await Promise.all(Array.from({ length: LIMIT.burstLimit + 3 }, () => company.call('GET', '/company')));
    const refused = burst.find((answer) => answer.status === 429);
    expect(refused).toBeDefined();

    await new Promise((resolve) => setTimeout(resolve, Number(refused!.headers.get('retry-after')) * 1000));
    const after = await company.call('GET', '/company');

    expect(after.status).toBe(200);
  });
});

/**
 * Issue #31 item 14: `npm start` enforces the sandbox stage's limits (lib/stages.ts), so an
 * integrator meets the sandbox's 429s on their own machine, not a limit no one reaches.
 */
describe("the local runtime's default limits are the sandbox stage's", () => {
  const sandbox = STAGES.sandbox;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await startTestApi({ stageRateLimits: true });
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  /** `count` requests at once; what passed, what was refused, and how long the burst took. */
  async function burst(count: number, send: () => Promise<{ status: number }>) {
    const started = Date.now();
    const statuses = (await Promise.all(Array.from({ length: count }, send))).map((answer) => answer.status);
    return { statuses, seconds: (Date.now() - started) / 1000 };
  }

  it(`throttles one company at ${sandbox.companyRateLimit.rateLimit}/s with a burst of ${sandbox.companyRateLimit.burstLimit}`, async () => {
    const call = apiClient(runtime);
    // The authorizer's first answer is cached; the burst then costs no credential checks.
    await call('GET', '/company');
    const { statuses, seconds } = await burst(sandbox.companyRateLimit.burstLimit * 3, () => call('GET', '/company'));

    const passed = statuses.filter((status) => status === 200).length;
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(passed).toBeGreaterThanOrEqual(sandbox.companyRateLimit.burstLimit);
    expect(passed).toBeLessThan(statuses.length);
    // What refilled while the burst was served, on however slow a machine.
    expect(passed).toBeLessThanOrEqual(sandbox.companyRateLimit.burstLimit + Math.ceil(seconds * sandbox.companyRateLimit.rateLimit));
  });

  it(`throttles the stage at ${sandbox.throttle.rateLimit}/s with a burst of ${sandbox.throttle.burstLimit}, before any credentials are checked`, async () => {
    const { statuses, seconds } = await burst(sandbox.throttle.burstLimit * 3, () => apiClient(runtime)('GET', '/company', { auth: false }));

    const throttled = statuses.filter((status) => status === 429).length;
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    const passed = statuses.length - throttled;
    expect(passed).toBeGreaterThanOrEqual(sandbox.throttle.burstLimit);
    expect(passed).toBeLessThan(statuses.length);
    expect(passed).toBeLessThanOrEqual(sandbox.throttle.burstLimit + Math.ceil(seconds * sandbox.throttle.rateLimit));
  });
});
