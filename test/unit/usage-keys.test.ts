import { APIGatewayClient, ConflictException, CreateApiKeyCommand, CreateUsagePlanKeyCommand, DeleteUsagePlanKeyCommand, GetApiKeysCommand, NotFoundException } from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureUsageKey } from '#adapters/usage-keys';
import { usageIdentifier } from '#functions/api-keys/rate-limits';

/**
 * A company's API Gateway key in its tier's usage plan: without it, API Gateway answers every call
 * of the company 429 (per-company rate limits, README), and in another tier's plan the company gets
 * another tier's limit. API Gateway has no local engine, so the client is mocked. The job module
 * reads its settings and makes its client when first imported.
 */
const PLANS = { standard: 'plan-standard', growth: 'plan-growth', scale: 'plan-scale' } as const;
process.env.STAGE = 'production';
process.env.USAGE_PLAN_IDS = JSON.stringify(PLANS);

const gateway = mockClient(APIGatewayClient);
const client = new APIGatewayClient({ region: 'us-east-1' });
const conflict = () => new ConflictException({ message: 'API Key already exists', $metadata: {} });
const notFound = () => new NotFoundException({ message: 'Invalid API Key identifier specified', $metadata: {} });
const ids = { stage: 'production', tier: 'standard', usagePlanIds: PLANS, companyId: 'cmp_01JA0000000000000000000000' } as const;
const planKeysAdded = () => gateway.commandCalls(CreateUsagePlanKeyCommand).map((call) => call.args[0].input);
const planKeysRemoved = () => gateway.commandCalls(DeleteUsagePlanKeyCommand).map((call) => call.args[0].input);

/** API Gateway holds `key` already, in the usage plan `inPlan` and in no other: taking it out of any
 * other answers NotFound. Putting it in a plan succeeds. */
function keyAlreadyIn(inPlan: string, key: { id: string; name: string }) {
  gateway.on(CreateApiKeyCommand).rejects(conflict());
  gateway.on(GetApiKeysCommand).resolves({ items: [key] });
  for (const plan of Object.values(PLANS)) {
    if (plan === inPlan) gateway.on(DeleteUsagePlanKeyCommand, { usagePlanId: plan }).resolves({});
    else gateway.on(DeleteUsagePlanKeyCommand, { usagePlanId: plan }).rejects(notFound());
  }
  gateway.on(CreateUsagePlanKeyCommand).resolves({});
}

afterEach(() => gateway.reset());
afterAll(() => gateway.restore());

describe('ensureUsageKey', () => {
  it("creates the company's key with its usage identifier as the value and puts it in its tier's plan alone", async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    expect(await ensureUsageKey(client, ids)).toBe('created');

    const [create] = gateway.commandCalls(CreateApiKeyCommand);
    expect(create!.args[0].input).toMatchObject({ name: 'cambio-production-cmp_01JA0000000000000000000000', value: usageIdentifier(ids.companyId), enabled: true });
    expect(planKeysAdded()).toEqual([{ usagePlanId: 'plan-standard', keyId: 'key-1', keyType: 'API_KEY' }]);
    expect(planKeysRemoved()).toEqual([]);
  });

  it('changes nothing the second time: an existing key is found by its exact name and an existing plan membership is fine', async () => {
    gateway.on(CreateApiKeyCommand).rejects(conflict());
    gateway.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'key-other', name: 'cambio-production-cmp_01JA0000000000000000000000-old' },
        { id: 'key-1', name: 'cambio-production-cmp_01JA0000000000000000000000' },
      ],
    });
    gateway.on(DeleteUsagePlanKeyCommand).rejects(notFound());
    gateway.on(CreateUsagePlanKeyCommand).rejects(conflict());

    expect(await ensureUsageKey(client, ids)).toBe('existed');

    expect(gateway.commandCalls(GetApiKeysCommand)[0]!.args[0].input.nameQuery).toBe('cambio-production-cmp_01JA0000000000000000000000');
    expect(planKeysAdded().map((input) => [input.usagePlanId, input.keyId])).toEqual([['plan-standard', 'key-1']]);
  });

  it("moves an existing key to another tier: out of every other tier's plan, then into its own", async () => {
    keyAlreadyIn('plan-standard', { id: 'key-1', name: 'cambio-production-cmp_01JA0000000000000000000000' });

    expect(await ensureUsageKey(client, { ...ids, tier: 'growth' })).toBe('existed');

    expect(planKeysRemoved()).toEqual([
      { usagePlanId: 'plan-standard', keyId: 'key-1' },
      { usagePlanId: 'plan-scale', keyId: 'key-1' },
    ]);
    expect(planKeysAdded()).toEqual([{ usagePlanId: 'plan-growth', keyId: 'key-1', keyType: 'API_KEY' }]);
    // API Gateway refuses a key in two plans of one stage: out first, then in.
    expect(gateway.calls().map((call) => call.args[0].constructor.name).slice(-3)).toEqual(['DeleteUsagePlanKeyCommand', 'DeleteUsagePlanKeyCommand', 'CreateUsagePlanKeyCommand']);
  });

  it('fails, rather than leaving the company without a key, when API Gateway says the key exists but lists none by its name', async () => {
    gateway.on(CreateApiKeyCommand).rejects(conflict());
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key-other', name: 'cambio-sandbox-cmp_01JA0000000000000000000000' }] });

    await expect(ensureUsageKey(client, ids)).rejects.toThrow('lists none named cambio-production-cmp_01JA0000000000000000000000');
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)).toHaveLength(0);
  });

  it('passes any other API Gateway error on, so the stream retries the batch', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-1' });
    gateway.on(CreateUsagePlanKeyCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));

    await expect(ensureUsageKey(client, ids)).rejects.toThrow('Rate exceeded');
  });

  it('passes on a failure to take the key out of another plan, rather than leave it in two', async () => {
    gateway.on(CreateApiKeyCommand).rejects(conflict());
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key-1', name: 'cambio-production-cmp_01JA0000000000000000000000' }] });
    gateway.on(DeleteUsagePlanKeyCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));

    await expect(ensureUsageKey(client, { ...ids, tier: 'scale' })).rejects.toThrow('Rate exceeded');
    expect(planKeysAdded()).toEqual([]);
  });
});

describe('the usage key provisioner job', () => {
  const company = (id: string, tier?: string) => ({ type: { S: 'Company' }, id: { S: id }, ...(tier && { rateLimitTier: { S: tier } }) });
  const inserted = (image: object) => ({ eventName: 'INSERT', dynamodb: { NewImage: image } });
  const modified = (before: object, after: object) => ({ eventName: 'MODIFY', dynamodb: { OldImage: before, NewImage: after } });
  const run = async (event: object) => {
    const { handler } = await import('../../functions/handlers/jobs/usage-key-provisioner.ts');
    return handler(event as never, { awsRequestId: 'run-usage-keys' });
  };

  beforeAll(() => {
    // The job logs each company; the assertions are on what it asks API Gateway.
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterAll(() => vi.restoreAllMocks());

  it("gives each company inserted in the stream a key in its tier's plan, and none to any other item", async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-new' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    await run({ Records: [inserted(company('cmp_A', 'standard')), inserted({ type: { S: 'Deposit' }, id: { S: 'dep_1' } }), inserted(company('cmp_C'))] });

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input.value)).toEqual([usageIdentifier('cmp_A'), usageIdentifier('cmp_C')]);
    // A profile without a tier is at the first.
    expect(planKeysAdded().map((input) => input.usagePlanId)).toEqual(['plan-standard', 'plan-standard']);
  });

  it("moves the key of a company whose tier changed to the new tier's plan, and leaves a company changed otherwise alone", async () => {
    keyAlreadyIn('plan-standard', { id: 'key-raised', name: 'cambio-production-cmp_R' });

    await run({
      Records: [
        modified(company('cmp_R'), company('cmp_R', 'scale')),
        modified(company('cmp_S', 'growth'), { ...company('cmp_S', 'growth'), name: { S: 'Renamed' } }),
      ],
    });

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input.name)).toEqual(['cambio-production-cmp_R']);
    expect(planKeysRemoved().map((input) => input.usagePlanId)).toEqual(['plan-standard', 'plan-growth']);
    expect(planKeysAdded()).toEqual([{ usagePlanId: 'plan-scale', keyId: 'key-raised', keyType: 'API_KEY' }]);
  });

  it('backfills the companies named by hand (those created before the usage plans existed) into the first tier', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-new' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    await run({ companyIds: ['cmp_old1', 'cmp_old2'] });

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input.name)).toEqual(['cambio-production-cmp_old1', 'cambio-production-cmp_old2']);
    expect(planKeysAdded().map((input) => input.usagePlanId)).toEqual(['plan-standard', 'plan-standard']);
  });
});
