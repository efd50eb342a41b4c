import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { depositAddressItem } from '#adapters/dynamo/items/deposit-address';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress, isTronAddress } from '#functions/networks/tron/tron-address';
import { newCompany as createTestCompany, useTestApi } from '../support/local-api.ts';

const api = useTestApi();
const splitAddress = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 999_999);

const newCompany = (name: string) => createTestCompany(api.runtime, name);

const deposit = (reference: string, extra: Record<string, unknown> = {}) => ({ method: 'usdt', network: 'tron', reference, ...extra });

describe('POST /v1/deposits', () => {
  it('creates an awaiting_payment deposit with a fresh TRON address that expires in 24 h', async () => {
    const { call } = await newCompany('Depositor');
    const before = Date.now();
    const created = await call('POST', '/deposits', { body: deposit('order-1', { amount: '25' }) });
    expect(created.status).toBe(201);
    const record = created.body.data;
    expect(record).toEqual({
      id: expect.stringMatching(/^dep_/),
      method: 'usdt',
      reference: 'order-1',
      network: 'tron',
      address: expect.stringMatching(/^T/),
      amount: '25.000000',
      receivedAmount: '0.000000',
      creditedAmount: '0.000000',
      amountStatus: null,
      status: 'awaiting_payment',
      holdReason: null,
      confirmations: 0,
      requiredConfirmations: 19,
      transactions: [],
      split: null,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: record.createdAt,
    });
    expect(isTronAddress(record.address)).toBe(true);
    const ttl = Date.parse(record.expiresAt) - Date.parse(record.createdAt);
    expect(ttl).toBe(24 * 60 * 60 * 1000);
    expect(Date.parse(record.createdAt)).toBeGreaterThanOrEqual(before - 5);

    const read = await call('GET', `/deposits/${record.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(record);
  });

  it('derives each address from the service xpub at the next index, so the wallet can find it', async () => {
    const { call } = await newCompany('Indexer');
    const created = await call('POST', '/deposits', { body: deposit('idx-1') });
    const lookup = await api.db.send(new GetCommand({ TableName: api.runtime.tableName, Key: depositAddressItem.key(created.body.data.address) }));
    expect(lookup.Item).toMatchObject({ depositId: created.body.data.id, address: created.body.data.address });
    expect(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, Number(lookup.Item!.addressIndex))).toBe(created.body.data.address);
  });

  it('never hands out one address twice, even to concurrent requests of different companies', async () => {
    const a = await newCompany('A');
    const b = await newCompany('B');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a.call : b.call)('POST', '/deposits', { body: deposit(`c-${i}`) })),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const addresses = responses.map((r) => r.body.data.address);
    expect(new Set(addresses).size).toBe(30);
  });

  it('accepts a split by percent or by amount and shows it on the record', async () => {
    const { call } = await newCompany('Splitter');
    const byPercent = await call('POST', '/deposits', { body: deposit('s-1', { split: { address: splitAddress, percent: 12.5 } }) });
    expect(byPercent.status).toBe(201);
    expect(byPercent.body.data.split).toEqual({ address: splitAddress, percent: 12.5, amount: null, forwardedAmount: '0.000000', withdrawalId: null });
    const byAmount = await call('POST', '/deposits', { body: deposit('s-2', { split: { address: splitAddress, amount: '2.5' } }) });
    expect(byAmount.body.data.split).toEqual({ address: splitAddress, percent: null, amount: '2.500000', forwardedAmount: '0.000000', withdrawalId: null });
  });

  it('refuses a reused reference with 409 DUPLICATE_REFERENCE naming the existing deposit', async () => {
    const { call } = await newCompany('Dup');
    const first = await call('POST', '/deposits', { body: deposit('same') });
    const second = await call('POST', '/deposits', { body: deposit('same') });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'DUPLICATE_REFERENCE', details: { existingId: first.body.data.id } });
    // References are per company: another company may use the same one.
    const other = await newCompany('Other');
    expect((await other.call('POST', '/deposits', { body: deposit('same') })).status).toBe(201);
  });

  it.each([
    ['no reference', { reference: undefined }, 'reference'],
    ['a reference over 128 characters', { reference: 'r'.repeat(129) }, 'reference'],
    ['another method', { method: 'btc' }, 'method'],
    ['a network the stage does not open (the test runtime opens no EVM network)', { network: 'ethereum' }, 'network'],
    ['an unknown network', { network: 'dogecoin' }, 'network'],
    ['a TRON split address on ethereum', { network: 'ethereum', split: { address: splitAddress, percent: 10 } }, 'split.address'],
    ['a 0x split address whose EIP-55 checksum is broken', { network: 'ethereum', split: { address: '0xdac17F958D2ee523a2206206994597C13D831ec7', percent: 10 } }, 'split.address'],
    ['amount "0"', { amount: '0' }, 'amount'],
    ['amount as a number', { amount: 25 }, 'amount'],
    ['amount "0.0000001"', { amount: '0.0000001' }, 'amount'],
    ['a split with both percent and amount', { split: { address: splitAddress, percent: 10, amount: '1' } }, 'split'],
    ['a split with neither', { split: { address: splitAddress } }, 'split'],
    ['a split percent of 100', { split: { address: splitAddress, percent: 100 } }, 'split.percent'],
    ['a split percent with 3 decimals', { split: { address: splitAddress, percent: 1.234 } }, 'split.percent'],
    // Each within a float's tolerance of 100.00 or 0.00, once taken for them: a whole transfer forwarded, or none.
    ['a split percent of 99.999999999999', { split: { address: splitAddress, percent: 99.999999999999 } }, 'split.percent'],
    ['a split percent of 1e-12', { split: { address: splitAddress, percent: 1e-12 } }, 'split.percent'],
    ['a split to an invalid address', { split: { address: 'T123', percent: 10 } }, 'split.address'],
    ['an unknown field', { callbackUrl: 'https://example.com' }, 'callbackUrl'],
  ])('refuses %s with 400 naming the path, creating nothing', async (_, change, path) => {
    const { call } = await newCompany('Validation');
    const body = { ...deposit('v-1'), ...change };
    const refused = await call('POST', '/deposits', { body });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    // Nothing was written: the reference is still free.
    expect((await call('POST', '/deposits', { body: deposit('v-1') })).status).toBe(201);
  });

  it('names the networks the stage opens when refusing one it does not (TRON alone here)', async () => {
    const { call } = await newCompany('Closed network');
    const refused = await call('POST', '/deposits', { body: deposit('closed', { network: 'polygon' }) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'network', message: 'is not open on this stage: deposits are taken on tron' }]);
  });

  it('replays a retried POST with the same Idempotency-Key instead of creating a second deposit', async () => {
    const { call } = await newCompany('Retry');
    const headers = { 'Idempotency-Key': 'dep-key-1' };
    const first = await call('POST', '/deposits', { body: deposit('idem'), headers });
    const again = await call('POST', '/deposits', { body: deposit('idem'), headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it('another company cannot read a deposit: 404', async () => {
    const owner = await newCompany('Owner');
    const other = await newCompany('Stranger');
    const created = await owner.call('POST', '/deposits', { body: deposit('private') });
    for (const id of [created.body.data.id, 'dep_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'dep_x']) {
      const response = await other.call('GET', `/deposits/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });
});
