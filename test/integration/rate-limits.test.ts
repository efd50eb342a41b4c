import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { newCompany, startTestApi } from '../support/local-api.ts';

/**
 * Issue #18 item 2: one company's burst meets 429 RATE_LIMITED with Retry-After, while another
 * company's calls pass. The local runtime keeps a token bucket per company, as API Gateway's usage
 * plan does per company key (functions/api-keys/rate-limits.ts); here 5 at once, then 2 a second.
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
