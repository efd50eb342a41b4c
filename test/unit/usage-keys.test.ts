import { APIGatewayClient, ConflictException, CreateApiKeyCommand, CreateUsagePlanKeyCommand, GetApiKeysCommand } from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureUsageKey } from '#adapters/usage-keys';
import { usageIdentifier } from '#functions/api-keys/rate-limits';

/**
 * A company's API Gateway key in the stage's usage plan: without it, API Gateway answers every call
 * of the company 429 (per-company rate limits, README). API Gateway has no local engine, so the
 * client is mocked. The job module reads its settings and makes its client when first imported.
 */
process.env.STAGE = 'production';
process.env.USAGE_PLAN_ID = 'plan-prod';

const gateway = mockClient(APIGatewayClient);
const client = new APIGatewayClient({ region: 'us-east-1' });
const conflict = () => new ConflictException({ message: 'API Key already exists', $metadata: {} });
const ids = { stage: 'production', usagePlanId: 'plan-prod', companyId: 'cmp_01JA0000000000000000000000' };

afterEach(() => gateway.reset());
afterAll(() => gateway.restore());

describe('ensureUsageKey', () => {
  it("creates the company's key with its usage identifier as the value and puts it in the stage's plan", async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    expect(await ensureUsageKey(client, ids)).toBe('created');

    const [create] = gateway.commandCalls(CreateApiKeyCommand);
    expect(create!.args[0].input).toMatchObject({ name: 'cambio-production-cmp_01JA0000000000000000000000', value: usageIdentifier(ids.companyId), enabled: true });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand).map((call) => call.args[0].input)).toEqual([{ usagePlanId: 'plan-prod', keyId: 'key-1', keyType: 'API_KEY' }]);
  });

  it('changes nothing the second time: an existing key is found by its exact name and an existing plan membership is fine', async () => {
    gateway.on(CreateApiKeyCommand).rejects(conflict());
    gateway.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'key-other', name: 'cambio-production-cmp_01JA0000000000000000000000-old' },
        { id: 'key-1', name: 'cambio-production-cmp_01JA0000000000000000000000' },
      ],
    });
    gateway.on(CreateUsagePlanKeyCommand).rejects(conflict());

    expect(await ensureUsageKey(client, ids)).toBe('existed');

    expect(gateway.commandCalls(GetApiKeysCommand)[0]!.args[0].input.nameQuery).toBe('cambio-production-cmp_01JA0000000000000000000000');
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input.keyId).toBe('key-1');
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
});

describe('the usage key provisioner job', () => {
  const insert = (type: string, id: string, eventName: 'INSERT' | 'MODIFY' = 'INSERT') => ({ eventName, dynamodb: { NewImage: { type: { S: type }, id: { S: id } } } });
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

  it('gives a key to each company inserted in the stream, and to no other item or change', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-new' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    await run({
      Records: [insert('Company', 'cmp_A'), insert('Deposit', 'dep_1'), insert('Company', 'cmp_B', 'MODIFY'), insert('Company', 'cmp_C')],
    });

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input.value)).toEqual([usageIdentifier('cmp_A'), usageIdentifier('cmp_C')]);
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand).every((call) => call.args[0].input.usagePlanId === 'plan-prod')).toBe(true);
  });

  it('backfills the companies named by hand (those created before the usage plan existed)', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'key-new' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});

    await run({ companyIds: ['cmp_old1', 'cmp_old2'] });

    expect(gateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input.name)).toEqual(['cambio-production-cmp_old1', 'cambio-production-cmp_old2']);
  });
});
