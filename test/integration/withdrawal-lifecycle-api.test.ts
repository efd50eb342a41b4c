import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SANDBOX_FAILING_ADDRESS } from '#functions/networks/tron/sandbox-chain';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { useFastChainApi } from '../support/local-api.ts';
import { waitFor } from '../support/wait.ts';
import { expectLedgerMatchesBalances } from '../support/money.ts';

const api = useFastChainApi();

const usdtBalance = async () => (await api.call('GET', '/company/balance')).body.data.balances[0];

describe('withdrawals on the local runtime, sent on the sandbox chain', () => {
  it('funded by a sandbox payment, a withdrawal completes with a txHash and the balance is exact; the failing address returns the funds', { timeout: 120_000 }, async () => {
    const deposit = (await api.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'fund-1' } })).body.data;
    await api.chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 31_337),
      to: deposit.address,
      amount: parseAmount('100', 'USDT'),
    });
    await waitFor(usdtBalance, (balance) => balance.available === '100.000000');

    const to = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 77_777);
    const created = await api.call('POST', '/withdrawals', {
      body: { method: 'usdt', network: 'tron', address: to, amount: '30', reference: 'payout-1' },
      headers: { 'Idempotency-Key': 'payout-1' },
    });
    expect(created.status).toBe(201);
    const failing = await api.call('POST', '/withdrawals', {
      body: { method: 'usdt', network: 'tron', address: SANDBOX_FAILING_ADDRESS, amount: '20', reference: 'payout-2' },
    });
    expect(failing.status).toBe(201);
    // (The hold itself is proven in withdrawals-api.test.ts: here the sender may already be at work.)

    const completed = await waitFor(
      async () => (await api.call('GET', `/withdrawals/${created.body.data.id}`)).body.data,
      (w) => w.status === 'completed',
    );
    expect(completed).toMatchObject({ status: 'completed', txHash: expect.stringMatching(/^[0-9a-f]{64}$/), completedAt: expect.any(String) });
    expect(await api.chain.receipt(completed.txHash)).toMatchObject({ result: 'SUCCESS' });

    const failed = await waitFor(
      async () => (await api.call('GET', `/withdrawals/${failing.body.data.id}`)).body.data,
      (w) => w.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'REVERT', txHash: expect.any(String), completedAt: null });

    // 100 in; 30 + 1 fee spent; the failed 20 + 1 back in available.
    expect(await usdtBalance()).toEqual({ currency: 'USDT', available: '69.000000', pending: '0.000000', locked: '0.000000' });
    await expectLedgerMatchesBalances(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, api.runtime.sandbox.companyId);
  });
});
