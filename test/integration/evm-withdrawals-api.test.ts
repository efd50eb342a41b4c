import { describe, expect, it } from 'vitest';
import type { EvmNetworkSettings } from '#functions/networks/evm/settings';
import { newCompany, useTestApi } from '../support/local-api.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';
import { ETHEREUM_WITHOUT_NODE } from '../support/deposit-settings.ts';

/**
 * POST /v1/withdrawals on an EVM network: taken where the stage opens the network (EVM_NETWORKS),
 * with that network's fee and minimum; refused, writing nothing, where it does not, or for an address not of
 * the network's form. Nothing here reads a chain, so the node's URL leads nowhere.
 */
const ETHEREUM: EvmNetworkSettings = { ...ETHEREUM_WITHOUT_NODE, withdrawalFeeUsdt: '4.5', withdrawalMinimumUsdt: '10' };
const api = useTestApi(undefined, { environment: { EVM_NETWORKS: JSON.stringify({ ethereum: ETHEREUM }) } });
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7';

async function fundedCompany(name: string) {
  const company = await newCompany(api.runtime, name);
  await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '100', 'ethereum');
  return company;
}

const body = (change: object = {}) => ({ method: 'usdt', network: 'ethereum', address: RECIPIENT, amount: '10', reference: `evm-${Math.random()}`, ...change });
const usdtBalance = async (call: Awaited<ReturnType<typeof newCompany>>['call']) =>
  (await call('GET', '/company/balance')).body.data.balances.find((row: { currency: string }) => row.currency === 'USDT');

describe('POST /v1/withdrawals on EVM networks', () => {
  it("takes one on an open network with that network's fee: amount + fee held, pending", async () => {
    const { companyId, call } = await fundedCompany('EVM Payer');
    const created = await call('POST', '/withdrawals', { body: body() });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ network: 'ethereum', address: RECIPIENT, amount: '10.000000', fee: '4.500000', status: 'pending', txHash: null });
    expect(await usdtBalance(call)).toMatchObject({ available: '85.500000', locked: '14.500000' });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it("refuses an amount below that network's own minimum with 422 AMOUNT_TOO_SMALL naming it, writing nothing, where TRON takes it", async () => {
    const { call } = await fundedCompany('EVM Small');
    await creditAvailable(api.db, api.runtime.tableName, (await call('GET', '/company')).body.data.id, 'USDT', '20', 'tron');
    const refused = await call('POST', '/withdrawals', { body: body({ amount: '9.99' }) });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'AMOUNT_TOO_SMALL', message: 'The minimum withdrawal on ethereum is 10.000000 USDT', details: { minimum: '10.000000' } });
    expect(await usdtBalance(call)).toMatchObject({ available: '120.000000', locked: '0.000000' });
    // TRON keeps the stage's minimum (1 USDT locally).
    const onTron = await call('POST', '/withdrawals', { body: body({ network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '9.99' }) });
    expect(onTron.status).toBe(201);
  });

  it.each([
    ['a network the stage does not open', { network: 'polygon' }, 'network', /not open on this stage: withdrawals are sent on tron, ethereum/],
    ['a TRON address on ethereum', { address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui' }, 'address', /./],
    ['a broken EIP-55 checksum', { address: '0x52908400098527886e0F7030069857D2E4169EE7' }, 'address', /./],
  ])('refuses %s with 400 VALIDATION_FAILED naming the field, writing nothing', async (_, change, path, message) => {
    const { call } = await fundedCompany('EVM Refused');
    const refused = await call('POST', '/withdrawals', { body: body(change) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path, message: expect.stringMatching(message) })]);
    expect(await usdtBalance(call)).toMatchObject({ available: '100.000000', locked: '0.000000' });
  });
});
