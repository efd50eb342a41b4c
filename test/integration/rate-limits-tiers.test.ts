import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { companyItem } from '#adapters/dynamo/items/company';
import { DynamoAuditLogStore } from '#adapters/dynamo/audit-log-store';
import { TIER_CACHE_MS } from '#local/usage-plan-tiers';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { newCompany, startTestApiWithClient, stopTestApi } from '../support/local-api.ts';
import { runOpsCommand } from '../support/ops-commands.ts';

// A file of its own: a process of its own, so no other runtime's requests or cached authorizer answers share its buckets.
/**
 * Issue #45: one company's limit raised to a higher tier with `npm run company:limits`
 * (ops/company-limits.ts) takes effect on the running local runtime within seconds, without a
 * restart, as a key moved to another usage plan does in AWS; every other company keeps its own.
 * The runtime enforces the sandbox stage's tiers (standard 10/s burst 20, growth 50/s burst 100).
 */
const { standard, growth } = STAGES.sandbox.capacity.tiers;

let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;
beforeAll(async () => ({ runtime, db } = await startTestApiWithClient({ stageRateLimits: true })));
afterAll(() => stopTestApi(runtime, db));

/** The command against this run's DynamoDB Local, as against a deployed sandbox stage's table. */
const companyLimits = (args: string[]) =>
  runOpsCommand('ops/company-limits.ts', ['--stage', 'sandbox', '--table', runtime.tableName, ...args], { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint });

/** `count` requests at once: how many passed, and how long the burst took. */
async function burst(call: Awaited<ReturnType<typeof newCompany>>['call'], count: number) {
  const started = Date.now();
  const statuses = (await Promise.all(Array.from({ length: count }, () => call('GET', '/company')))).map((answer) => answer.status);
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  return { passed: statuses.filter((status) => status === 200).length, seconds: (Date.now() - started) / 1000 };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm run company:limits on the local runtime', () => {
  it("raises one company to the growth tier: its next burst of the new size passes, its API answer says so, and another company's limit is unchanged", async () => {
    const raised = await newCompany(runtime, 'Growing Payments');
    const other = await newCompany(runtime, 'Steady Payments');
    // The authorizer's first answer is cached; the bursts then cost no credential checks.
    await raised.call('GET', '/company');
    await other.call('GET', '/company');

    const before = await burst(raised.call, standard.burstLimit * 3);
    expect(before.passed).toBeGreaterThanOrEqual(standard.burstLimit - 1);
    expect(before.passed).toBeLessThanOrEqual(standard.burstLimit + Math.ceil(before.seconds * standard.rateLimit));

    const run = await companyLimits(['--company', raised.companyId, '--rate', String(growth.rateLimit), '--burst', String(growth.burstLimit)]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${raised.companyId} moved from the standard tier (10 requests a second, bursts of 20) to growth (50 requests a second, bursts of 100) on sandbox, audited.`);
    await pause(TIER_CACHE_MS + 200);

    const after = await burst(raised.call, growth.burstLimit);
    expect(after.passed).toBe(growth.burstLimit);
    const profile = await raised.call('GET', '/company');
    expect(profile.body.data.rateLimit).toEqual({ tier: 'growth', requestsPerSecond: 50, burst: 100 });

    expect((await other.call('GET', '/company')).body.data.rateLimit).toEqual({ tier: 'standard', requestsPerSecond: 10, burst: 20 });
    const unchanged = await burst(other.call, standard.burstLimit * 3);
    expect(unchanged.passed).toBeLessThanOrEqual(standard.burstLimit + Math.ceil(unchanged.seconds * standard.rateLimit));
  });

  it('audits the change with who ran it and the tiers it moved between, and writes nothing when the company is already at that tier', async () => {
    const company = await newCompany(runtime, 'Audited Payments');
    const audit = () => new DynamoAuditLogStore(db, runtime.tableName).auditPage(company.companyId, { limit: 10 });

    const first = await companyLimits(['--company', company.companyId, '--rate', '50', '--burst', '100', '--json']);
    const again = await companyLimits(['--company', company.companyId, '--rate', '50', '--burst', '100']);

    expect(JSON.parse(first.stdout)).toEqual({ companyId: company.companyId, stage: 'sandbox', tier: 'growth', requestsPerSecond: 50, burst: 100, from: 'standard', changed: true });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`${company.companyId} is already at the growth tier on sandbox (50 requests a second, bursts of 100): nothing written.`);
    const entries = (await audit()).records;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'company.rate_limit_changed',
      actor: { personId: null, email: null },
      details: { from: 'standard', to: 'growth' },
      sourceIp: 'command line',
      userAgent: expect.stringMatching(/^company:limits \(.+@.+\)$/),
    });
  });

  it("refuses figures that are none of the stage's tiers, listing them, and a company that does not exist, writing nothing", async () => {
    const company = await newCompany(runtime, 'Bargaining Payments');

    const between = await companyLimits(['--company', company.companyId, '--rate', '30', '--burst', '60']);
    const unknown = await companyLimits(['--company', 'cmp_01JA0000000000000000000000', '--rate', '50', '--burst', '100']);

    expect(between.status).toBe(2);
    expect(between.stderr).toContain("--rate 30 --burst 60 is none of the sandbox stage's tiers");
    expect(between.stderr).toContain('standard: --rate 10 --burst 20\n  growth: --rate 50 --burst 100\n  scale: --rate 100 --burst 200');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("No company cmp_01JA0000000000000000000000 on the sandbox stage's table: nothing written.");
    expect((await company.call('GET', '/company')).body.data.rateLimit.tier).toBe('standard');
  });

  it('reads a company stored before tiers as standard, and raises it like any other', async () => {
    const company = await newCompany(runtime, 'Early Payments');
    await db.send(new UpdateCommand({ TableName: runtime.tableName, Key: companyItem.key(company.companyId), UpdateExpression: 'REMOVE rateLimitTier' }));

    const before = await company.call('GET', '/company');
    const run = await companyLimits(['--company', company.companyId, '--rate', '100', '--burst', '200', '--json']);

    expect(before.body.data.rateLimit).toEqual({ tier: 'standard', requestsPerSecond: 10, burst: 20 });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ tier: 'scale', from: 'standard', changed: true });
  });
});
