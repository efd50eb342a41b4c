import { parseUnits, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { hotWalletUsdtAtFinal, sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import type { SliceSettings } from '#functions/settings/functions';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { localWalletClient } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { anvilNetworkSettings, useAnvilWithContracts } from '../support/anvil.ts';

/**
 * A payout mined but not yet final, on an EVM network whose final block trails the head (Ethereum's
 * `finalized` by 13–19 minutes, Arbitrum's by ~20; here Ethereum's USDT on anvil, final 6 blocks deep): the float the
 * sender hands out and the stuck alarm's count, as the job builds them (functions/networks/evm/
 * withdrawal-sending.ts hotWalletUsdtAtFinal, settleEvmWithdrawals). A table of its own: the
 * stuck count is every processing payout of the network.
 */
const NETWORK = 'ethereum';
const CONFIRMATIONS = 6;
const anvil = useAnvilWithContracts({ chainId: 1, usdtDecimals: 6 });
const { client, mine, testClient } = anvil;
const env = useFreshTable();
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
let settings: SliceSettings<'chain'>;
let companyId: string;

/** A hot wallet of its own holding `usdtHeld` whole USDT, its funding final, and its sender as the job builds it. */
async function hotWalletWith(usdtHeld: bigint): Promise<EvmSendingDeps> {
  const key = generatePrivateKey();
  const { address } = privateKeyToAccount(key);
  await testClient().setBalance({ address, value: parseUnits('10', 18) });
  const hash = await localWalletClient(anvil.node.chain, anvil.node.deployer).writeContract({ address: anvil.node.usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [address, parseUnits(String(usdtHeld), 6)] });
  await client().waitForTransactionReceipt({ hash });
  await mine(CONFIRMATIONS);
  const chain = evmChainOf(NETWORK, settings);
  return {
    chain,
    payouts: evmPayoutsOf(NETWORK, settings, localEvmSigner(key.slice(2)), chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, NETWORK),
    hotWalletUsdt: hotWalletUsdtAtFinal(chain, anvil.node.usdt, async () => address, 1n),
  };
}

const withdraw = (amount: string): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } }, companyId, { reference: `w-${Math.random()}`, network: NETWORK, address: privateKeyToAccount(generatePrivateKey()).address as Address, amount: usdt(amount) }, new Date());
const statusOf = async (withdrawal: Withdrawal) => (await getWithdrawal(withdrawals, companyId, withdrawal.id)).status;
const minutesLater = (deps: EvmSendingDeps, minutes: number): EvmSendingDeps => ({ ...deps, now: () => new Date(Date.now() + minutes * 60_000) });

beforeAll(() => {
  settings = { EVM_NETWORKS: { [NETWORK]: anvilNetworkSettings(anvil.node, { chainId: 1, confirmations: CONFIRMATIONS }) } } as SliceSettings<'chain'>;
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'EVM Finality Co', environment: 'sandbox' }, new Date()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', '10000', NETWORK);
});

describe('a payout mined, not yet final', () => {
  it('is not stuck while it waits for finality; an hour in a block without it is', async () => {
    const sender = await hotWalletWith(100n);
    await withdraw('10');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1 });
    await mine(1);

    expect((await settleEvmWithdrawals(minutesLater(sender, 20))).stuck).toEqual({ count: 0, oldestAgeSeconds: 0 });
    const stalled = await settleEvmWithdrawals(minutesLater(sender, 61));
    expect(stalled.stuck.count).toBe(1);
    expect(stalled.stuck.oldestAgeSeconds).toBeGreaterThanOrEqual(61 * 60 - 5);

    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 1, stuck: { count: 0 } });
  });

  it('is taken off the float once: a payout the hot wallet still covers goes out at once, not after finality', async () => {
    const sender = await hotWalletWith(100n);
    const first = await withdraw('60');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1 });
    await mine(1);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 0 });
    expect(await statusOf(first)).toBe('processing');

    // 40 left in the wallet, at the head and once the first is final alike.
    const second = await withdraw('30');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 1, awaitingFloat: 0 });
    expect(await statusOf(second)).toBe('processing');
    // And what it does not cover waits.
    const third = await withdraw('20');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 0, awaitingFloat: 1 });
    expect(await statusOf(third)).toBe('pending');

    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ completed: 2 });
  });
});
