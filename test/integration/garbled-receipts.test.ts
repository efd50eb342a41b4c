import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal } from '#functions/withdrawals/withdrawals';
import type { ChainReader, TransactionReceipt } from '#functions/networks/chain';
import { sendWithdrawals, settleWithdrawals } from '#functions/networks/tron/withdrawal-sending';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { sandboxChainWithHotWallet, sandboxSending, USDT } from '../support/sandbox-chain-jobs.ts';

/*
 * A node that garbles the USDT Transfer log of Cambio's own transaction (its amount missing): the
 * readers list such a log rather than throw (a payer's contract can emit one beside a deposit), so
 * whoever settles from a receipt must not take a garbled one for what the transaction moved. A
 * payout settled from it completed having delivered nothing; it waits for a readable receipt.
 */
const { env, clock, hotWallet, chain } = sandboxChainWithHotWallet('2026-11-22T00:00:00.000Z');
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
/** Transactions whose receipts the node garbles. */
const garbled = new Set<string>();
const garble = (receipt: TransactionReceipt | null): TransactionReceipt | null =>
  receipt && garbled.has(receipt.txHash) ? { ...receipt, tokenTransfers: [], unreadableTransfers: [USDT] } : receipt;
const garbling: ChainReader = {
  latestBlock: () => chain.latestBlock(),
  finalBlock: () => chain.finalBlock(),
  transfers: (contract, from, to) => chain.transfers(contract, from, to),
  receipt: async (txHash) => garble(await chain.receipt(txHash)),
  finalReceipt: async (txHash) => garble(await chain.finalReceipt(txHash)),
};
const deps = { ...sandboxSending(env, chain, hotWallet, clock), chain: garbling };
const payee = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 515_151);

beforeAll(() => {
  clock.advanceBlocks(50);
});

describe('a payout whose final receipt the node garbles', () => {
  it('is not completed from it: it waits, and completes with what it delivered once the receipt reads', async () => {
    const { company } = await createCompany(companies, { name: 'Garbled Receipt Co', environment: 'sandbox' }, clock.now());
    await creditAvailable(env.db, env.tableName, company.id, 'USDT', '100');
    await chain.submitTransfer({ contract: USDT, from: payee, to: await hotWallet.address(), amount: usdt('100') });
    const withdrawal = await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, company.id, { reference: 'garbled-1', address: payee, amount: usdt('10') }, clock.now());
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: 1 });
    const { txHash } = await getWithdrawal(withdrawals, company.id, withdrawal.id);
    garbled.add(txHash!);

    clock.advanceBlocks(20);
    expect(await settleWithdrawals(deps)).toMatchObject({ completed: 0, failed: 0 });
    expect((await getWithdrawal(withdrawals, company.id, withdrawal.id)).status).toBe('processing');

    garbled.delete(txHash!);
    expect(await settleWithdrawals(deps)).toMatchObject({ completed: 1 });
    expect(await getWithdrawal(withdrawals, company.id, withdrawal.id)).toMatchObject({ status: 'completed', deliveredAmount: usdt('10') });
    await expectLedgerMatchesBalances(env.db, env.tableName, company.id);
  });
});
