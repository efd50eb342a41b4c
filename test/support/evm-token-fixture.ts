import { erc20Abi, parseUnits, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, expect } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import { getWithdrawal, requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals } from '#functions/networks/evm/withdrawal-sending';
import type { EvmNetworkName } from '#functions/networks/evm/settings';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import { recordHotWalletFloat } from '#functions/ledger/floats';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { hotWalletFloatOf, localWalletClient, type LocalUsdtToken } from '#local/evm-contracts';
import { evmSandboxIssuer } from '#local/evm-issuer';
import { useFreshTable } from './dynamo.ts';
import { usdt, WITHDRAWAL_RULES } from './money.ts';
import { evmSenderDeps, reconcileEvmNetworks, useEvmDepositAnvil } from './evm-jobs.ts';

/**
 * A test file about the issuer's controls on one EVM network's USDT: a fresh table, an anvil with
 * the network's token (`usdtToken`) whose hot wallet float is recorded, a fresh company before each
 * test, and what such tests do with them: pay a deposit address from the customer wallet, read a
 * balance, drive the issuer, pay a withdrawal out through the jobs, and check reconcile.
 */
export function useEvmTokenFixture(network: EvmNetworkName, { chainId, confirmations, usdtToken }: { chainId: number; confirmations: number; usdtToken?: LocalUsdtToken }) {
  const env = useFreshTable();
  const deposits = new DynamoDepositStore(env.db, env.tableName);
  const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
  const companies = new DynamoCompanyStore(env.db, env.tableName);
  const anvil = useEvmDepositAnvil(env, network, { chainId, usdtDecimals: 6, confirmations, usdtToken });
  const rules = { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [network]: {} } };
  const fixture = {
    env,
    deposits,
    withdrawals,
    companies,
    anvil,
    rules,
    /** The company of the running test. */
    companyId: '',
    stage: () => anvil.settings.EVM_NETWORKS[network]!,
    balanceOf: (address: string, token: Address = anvil.node.usdt) => anvil.client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] }),
    companyUsdt: async () => (await companies.getBalances(fixture.companyId)).find((row) => row.currency === 'USDT')!,
    issuer: () => evmSandboxIssuer(network, fixture.stage()),
    newDeposit: (): Promise<Deposit> => createDeposit(deposits, depositSettingsFrom(anvil.settings), fixture.companyId, { network, reference: `tc-${Math.random()}` }, new Date()),
    newPayee: () => privateKeyToAccount(generatePrivateKey()).address,
    /** The customer pays `amount` USDT to `to` (transfer(address,uint256): the same call on every token). */
    async pay(to: string, amount: string, token: Address = anvil.node.usdt) {
      const hash = await localWalletClient(anvil.node.chain, anvil.node.customer).writeContract({ address: token, abi: TetherUsdt.abi, functionName: 'transfer', args: [to as Address, parseUnits(amount, 6)] });
      expect((await anvil.client().waitForTransactionReceipt({ hash })).status).toBe('success');
    },
    /** A withdrawal of `amount` to `payee` through the hot wallet, sent, mined final and settled by
     * the jobs: the withdrawal as the company then reads it. */
    async paidOut(payee: Address, amount: string) {
      const withdrawal = await requestWithdrawal(withdrawals, rules, fixture.companyId, { reference: `tc-${Math.random()}`, network, address: payee, amount: usdt(amount) }, new Date());
      await sendEvmWithdrawals(evmSenderDeps(env, network, anvil.settings));
      await anvil.mine(confirmations);
      await settleEvmWithdrawals(evmSenderDeps(env, network, anvil.settings));
      return getWithdrawal(withdrawals, fixture.companyId, withdrawal.id);
    },
    /** The issuer unfreezes the address of `deposit`, which was paid `amount` while frozen: the poller
     * credits it, and the sweeper empties the address and sets nothing aside any more. */
    async unfrozenAndSwept(deposit: Deposit, amount: string) {
      await fixture.issuer().unfreeze(deposit.address);
      expect(await anvil.depositJobs().release()).toBe(1);
      expect(await getDeposit(deposits, fixture.companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: usdt(amount) });
      await anvil.sweepUntilSettled();
      expect(await fixture.balanceOf(deposit.address)).toBe(0n);
      expect(await anvil.sweeper().store.setAsideAddresses()).toEqual([]);
    },
    /** Reconcile's figures for the network. */
    reconciliation: async () => (await reconcileEvmNetworks(env, anvil.settings, { [network]: anvil.node.hotWallet.address })).networks.find((row) => row.network === network)!,
    /** Reconcile balances on the network, or says why not. */
    async reconciled() {
      const result = await reconcileEvmNetworks(env, anvil.settings, { [network]: anvil.node.hotWallet.address });
      expect(result.networks.find((row) => row.network === network)!.balanced, reconciliationReport(result)).toBe(true);
    },
  };
  beforeAll(async () => {
    // The hot wallet's starting USDT is Cambio's float, recorded so reconcile counts it.
    await recordHotWalletFloat(new DynamoFloatStore(env.db, env.tableName), hotWalletFloatOf(network, anvil.node), new Date());
  });
  beforeEach(async () => {
    ({ company: { id: fixture.companyId } } = await createCompany(companies, { name: 'Tether Co', environment: 'sandbox' }, new Date()));
  });
  return fixture;
}
