import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { apiClient, newCompany as createTestCompany, useTestApi } from '../support/local-api.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';
import { refusedNewWithdrawal } from '../support/dashboard-withdrawals.ts';

const api = useTestApi();
const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_999);

const newCompany = (name: string) => createTestCompany(api.runtime, name);
/** Funds a company's available USDT as the chain would (a ledger posting from the TRON network). */
const creditUsdt = (companyId: string, amount: string) => creditAvailable(api.db, api.runtime.tableName, companyId, 'USDT', amount);

const withdrawal = (reference: string, amount = '10') => ({ method: 'usdt', network: 'tron', address: destination, amount, reference });

async function usdtBalance(call: ReturnType<typeof apiClient>) {
  const response = await call('GET', '/company/balance');
  return response.body.data.balances.find((b: { currency: string }) => b.currency === 'USDT');
}

/** POSTs a withdrawal that must be refused with this status and code; its `error` object. */
async function refusedWithdrawal(call: ReturnType<typeof apiClient>, body: object, status: number, code: string) {
  const refused = await call('POST', '/withdrawals', { body });
  expect(refused.status).toBe(status);
  expect(refused.body.error.code).toBe(code);
  return refused.body.error;
}

describe('POST /v1/withdrawals', () => {
  it('holds amount + fee: available to locked, status pending, and the record reads back', async () => {
    const { companyId, call } = await newCompany('Holder');
    await creditUsdt(companyId, '100');

    const created = await call('POST', '/withdrawals', { body: withdrawal('payout-1', '10.5') });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      id: expect.stringMatching(/^wdr_/),
      method: 'usdt',
      network: 'tron',
      address: destination,
      amount: '10.500000',
      fee: '1.000000',
      reference: 'payout-1',
      status: 'pending',
      txHash: null,
      deliveredAmount: null,
      networkCost: null,
      failureReason: null,
      completedAt: null,
    });
    expect(await usdtBalance(call)).toEqual({ currency: 'USDT', available: '88.500000', pending: '0.000000', locked: '11.500000' });

    const read = await call('GET', `/withdrawals/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it.each([
    // 10 + 1 fee > 10.5
    ['more than the available balance', 'INSUFFICIENT_BALANCE', '10.5', '10', '10.500000'],
    ['an amount below the minimum', 'AMOUNT_TOO_SMALL', '100', '0.5', '100.000000'],
  ])('refuses %s with 422 %s, writing nothing and leaving the reference free', async (_, code, funds, amount, available) => {
    const { companyId, call } = await newCompany('Refused');
    await creditUsdt(companyId, funds);
    await refusedWithdrawal(call, withdrawal('refused', amount), 422, code);
    expect(await usdtBalance(call)).toMatchObject({ available, locked: '0.000000' });
    // The reference was not consumed by the refused attempt.
    await creditUsdt(companyId, '1');
    expect((await call('POST', '/withdrawals', { body: withdrawal('refused', '10') })).status).toBe(201);
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('refuses a reused reference with 409 DUPLICATE_REFERENCE naming the existing withdrawal', async () => {
    const { companyId, call } = await newCompany('Dup');
    await creditUsdt(companyId, '100');
    const first = await call('POST', '/withdrawals', { body: withdrawal('same-ref') });
    const second = await call('POST', '/withdrawals', { body: withdrawal('same-ref') });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'DUPLICATE_REFERENCE', details: { existingId: first.body.data.id } });
    expect(await usdtBalance(call)).toMatchObject({ available: '89.000000', locked: '11.000000' });
  });

  it('answers a retry of a withdrawal that took the whole balance 409 DUPLICATE_REFERENCE, not 422: it was made', async () => {
    const { companyId, call } = await newCompany('All In');
    await creditUsdt(companyId, '11');
    const first = await call('POST', '/withdrawals', { body: withdrawal('all-in', '10') });
    expect(first.status).toBe(201);
    // The answer lost, the caller sends it again: the balance its own hold took is not the refusal.
    const again = await call('POST', '/withdrawals', { body: withdrawal('all-in', '10') });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'DUPLICATE_REFERENCE', details: { existingId: first.body.data.id } });
    expect(await usdtBalance(call)).toMatchObject({ available: '0.000000', locked: '11.000000' });
    // A new reference is still refused for the balance.
    await refusedWithdrawal(call, withdrawal('all-in-2', '10'), 422, 'INSUFFICIENT_BALANCE');
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it.each([
    ['amount "0"', { amount: '0' }, 'amount'],
    ['amount "-1"', { amount: '-1' }, 'amount'],
    ['amount "1e3"', { amount: '1e3' }, 'amount'],
    ['amount as a JSON number', { amount: 1 }, 'amount'],
    ['amount "0.0000001"', { amount: '0.0000001' }, 'amount'],
    ['a huge amount', { amount: '1'.repeat(40) }, 'amount'],
    ['a hex TRON address', { address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c' }, 'address'],
    ['an address with a bad checksum', { address: `${destination.slice(0, -1)}${destination.endsWith('a') ? 'b' : 'a'}` }, 'address'],
    // Ethereum is not open on this stage (EVM_NETWORKS is empty): refused on `network`, whatever the address.
    ['a network the stage does not open', { network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, 'network'],
    ['a TRON address on ethereum', { network: 'ethereum' }, 'address'],
    ['an unknown field', { memo: 'hi' }, 'memo'],
    ['a reference with spaces', { reference: 'has space' }, 'reference'],
    // Reserved for split forwards: taken first, it would keep that deposit confirming for good.
    ['a split forward\'s reference', { reference: 'split:dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5:abab:0' }, 'reference'],
    ['a split: reference in capitals', { reference: 'SPLIT:anything' }, 'reference'],
  ])('refuses %s with 400 naming the path, writing nothing', async (_, change, path) => {
    const { companyId, call } = await newCompany('Validation');
    await creditUsdt(companyId, '100');
    const error = await refusedWithdrawal(call, { ...withdrawal('v-1'), ...change }, 400, 'VALIDATION_FAILED');
    expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await usdtBalance(call)).toMatchObject({ available: '100.000000', locked: '0.000000' });
  });

  it('never overdraws: 50 concurrent withdrawals against a balance for exactly 20', async () => {
    const { companyId, call } = await newCompany('Race');
    // 20 × (10 + 1 fee) = 220
    await creditUsdt(companyId, '220');

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call('POST', '/withdrawals', { body: withdrawal(`race-${i}`) })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 422)).toHaveLength(30);
    expect(responses.filter((r) => r.status === 422).every((r) => r.body.error.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    // available + locked (+ spent, none yet) equals what was deposited, to the unit.
    expect(await usdtBalance(call)).toEqual({ currency: 'USDT', available: '0.000000', pending: '0.000000', locked: '220.000000' });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('another company cannot read a withdrawal: 404, as for an unknown or malformed id', async () => {
    const owner = await newCompany('Owner');
    const other = await newCompany('Other');
    await creditUsdt(owner.companyId, '100');
    const created = await owner.call('POST', '/withdrawals', { body: withdrawal('mine') });
    for (const id of [created.body.data.id, 'wdr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nonsense', 'dep_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const response = await other.call('GET', `/withdrawals/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('Idempotency-Key on POST /v1/withdrawals', () => {
  it('20 concurrent sends of one key create exactly one withdrawal', async () => {
    const { companyId, call } = await newCompany('Retrier');
    await creditUsdt(companyId, '1000');
    const send = () => call('POST', '/withdrawals', { body: withdrawal('retry-1'), headers: { 'Idempotency-Key': 'key-retry-1' } });

    const responses = await Promise.all(Array.from({ length: 20 }, send));
    const created = responses.filter((r) => r.status === 201);
    const inFlight = responses.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(20);
    expect(inFlight.every((r) => r.body.error.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    expect(await usdtBalance(call)).toMatchObject({ available: '989.000000', locked: '11.000000' });

    // Once the first has finished, a retry replays it.
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created[0]!.body);
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { companyId, call } = await newCompany('Reuser');
    await creditUsdt(companyId, '100');
    const headers = { 'Idempotency-Key': 'key-reuse' };
    expect((await call('POST', '/withdrawals', { body: withdrawal('a'), headers })).status).toBe(201);
    const reused = await call('POST', '/withdrawals', { body: withdrawal('b'), headers });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a request that failed validation stores nothing: the key is free for the corrected request', async () => {
    const { companyId, call } = await newCompany('Fixer');
    await creditUsdt(companyId, '100');
    const headers = { 'Idempotency-Key': 'key-fix' };
    expect((await call('POST', '/withdrawals', { body: withdrawal('fix', '1e3'), headers })).status).toBe(400);
    const fixed = await call('POST', '/withdrawals', { body: withdrawal('fix', '10'), headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are per company: two companies may use the same key', async () => {
    const a = await newCompany('A');
    const b = await newCompany('B');
    await creditUsdt(a.companyId, '100');
    await creditUsdt(b.companyId, '100');
    const headers = { 'Idempotency-Key': 'shared-key' };
    const first = await a.call('POST', '/withdrawals', { body: withdrawal('x'), headers });
    const second = await b.call('POST', '/withdrawals', { body: withdrawal('x'), headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  it('refuses a key that is empty, too long or not printable', async () => {
    const { call } = await newCompany('Keys');
    for (const key of ['x'.repeat(256), 'tab\there']) {
      const response = await call('POST', '/withdrawals', { body: withdrawal('k'), headers: { 'Idempotency-Key': key } });
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].path).toBe('Idempotency-Key');
    }
  });
});

describe('New withdrawal on the dashboard', () => {
  it("refuses a split forward's reference with 400 on reference, as the API does, writing nothing", async () => {
    const refused = await refusedNewWithdrawal(api, 'Reserved References', { network: 'tron', address: destination, amount: '5', reference: 'split:dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5:ab:0' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain('reference');
  });
});
