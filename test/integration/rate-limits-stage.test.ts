import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { apiClient, newCompany, startTestApi } from '../support/local-api.ts';

// A file of its own: a process of its own, so no other runtime's requests or cached authorizer answers share its buckets.
/**
 * Issue #31 item 14: `npm start` enforces the sandbox stage's limits (config/stages.ts), so an
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
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(passed).toBeGreaterThanOrEqual(sandbox.companyRateLimit.burstLimit);
    expect(passed).toBeLessThan(statuses.length);
    // What refilled while the burst was served, on however slow a machine.
    expect(passed).toBeLessThanOrEqual(sandbox.companyRateLimit.burstLimit + Math.ceil(seconds * sandbox.companyRateLimit.rateLimit));
  });

  it("does not let one company's refused burst spend a method's capacity: a quiet company's requests right after pass (API Gateway applies the usage plan's limit first)", async () => {
    const busy = apiClient(runtime);
    const { call: quiet } = await newCompany(runtime, 'Quiet Payments');
    await busy('GET', '/company');
    await quiet('GET', '/company');
    // Three times the stage's burst from one company: its own bucket refuses all but ~its burst.
    const { statuses } = await burst(sandbox.throttle.burstLimit * 3, () => busy('GET', '/company'));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(sandbox.throttle.burstLimit);
    const answers = await Promise.all(Array.from({ length: 5 }, () => quiet('GET', '/company')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it(`throttles each method at ${sandbox.throttle.rateLimit}/s with a burst of ${sandbox.throttle.burstLimit}, before any credentials are checked`, async () => {
    // The other test's burst took tokens from this method's bucket: a full one first.
    await new Promise((resolve) => setTimeout(resolve, Math.ceil((sandbox.throttle.burstLimit / sandbox.throttle.rateLimit) * 1000) + 500));
    const { statuses, seconds } = await burst(sandbox.throttle.burstLimit * 3, () => apiClient(runtime)('GET', '/company', { auth: false }));

    const throttled = statuses.filter((status) => status === 429).length;
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    const passed = statuses.length - throttled;
    expect(passed).toBeGreaterThanOrEqual(sandbox.throttle.burstLimit);
    expect(passed).toBeLessThan(statuses.length);
    expect(passed).toBeLessThanOrEqual(sandbox.throttle.burstLimit + Math.ceil(seconds * sandbox.throttle.rateLimit));
  });

  it("keeps a bucket per method, as API Gateway applies the stage's throttle: a flood of one method that its bucket refuses leaves every other method's whole", async () => {
    const anonymous = apiClient(runtime);
    const { statuses } = await burst(sandbox.throttle.burstLimit * 3, () => anonymous('GET', '/company/balance', { auth: false }));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(sandbox.throttle.burstLimit);
    // Right after, another method's bucket is full: its whole burst passes on to the refusal of missing credentials, none is a 429.
    const other = await burst(sandbox.throttle.burstLimit, () => anonymous('GET', '/webhooks', { auth: false }));
    expect(new Set(other.statuses)).toEqual(new Set([401]));
  });
});
